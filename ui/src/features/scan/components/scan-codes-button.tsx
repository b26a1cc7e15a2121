import { ScanLine } from "lucide-react";
import * as React from "react";
import { Button, type ButtonProps } from "@/components/ui/button";
import { Lazy, loadable } from "@/lib/loadable";
import type { ScannerDialogProps } from "@/features/scan/components/scanner-dialog";

/** ScanCodesButtonProps are a Scan button's: what its scanner shows and where each code goes. */
export type ScanCodesButtonProps = Pick<ScannerDialogProps, "label" | "count" | "list" | "onCode" | "onUnavailable"> & {
  /** text is the button's own ("Scan"). */
  text?: string;
  variant?: ButtonProps["variant"];
  className?: string;
  disabled?: boolean;
};

// the camera and the decoder load when the scanner first opens (issue 36 item 3), as for the pack field
const scannerDialog = loadable<ScannerDialogProps>(() => import("@/features/scan/components/scanner-dialog").then((m) => m.ScannerDialog));

/**
 * ScanCodesButton opens the camera scanner (the same ScannerDialog the pack field opens) for a
 * list the caller keeps: every code found goes to onCode, one after another, until Done. A
 * screen that scans more packs than a movement names (the stocktake: a whole shelf) uses it
 * instead of PackScanField.
 */
export function ScanCodesButton({ text = "Scan", variant, className, disabled, ...scanner }: ScanCodesButtonProps) {
  const [open, setOpen] = React.useState(false);
  const [opened, setOpened] = React.useState(false);
  const preload = () => void scannerDialog.preload().catch(() => undefined);
  return (
    <>
      <Button
        type="button"
        variant={variant}
        className={className}
        disabled={disabled}
        // a finger on the button: the scanner's chunk starts loading before the tap ends
        onPointerDown={preload}
        onPointerEnter={preload}
        onClick={() => {
          performance.mark?.("scan:tap");
          setOpened(true);
          setOpen(true);
        }}
      >
        <ScanLine aria-hidden />
        {text}
      </Button>
      {opened && <Lazy of={scannerDialog} open={open} onOpenChange={setOpen} {...scanner} />}
    </>
  );
}
