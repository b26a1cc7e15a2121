import { ScanLine } from "lucide-react";
import * as React from "react";
import { Button, type ButtonProps } from "@/components/ui/button";
import { Lazy, loadable } from "@/lib/loadable";
import type { ScannerDialogProps } from "@/features/scan/components/scanner-dialog";

/** ScanCodesButtonProps are a Scan button's: what its scanner shows and where each code goes. */
export type ScanCodesButtonProps = Pick<ScannerDialogProps, "label" | "count" | "list" | "onCode" | "onUnavailable"> &
  Pick<ButtonProps, "variant" | "className" | "disabled"> & {
    /** text is the button's own ("Scan"). */
    text?: string;
  };

// the camera and the decoder load only when the scanner first opens (issue 36 item 3)
const scannerDialog = loadable<ScannerDialogProps>(() => import("@/features/scan/components/scanner-dialog").then((m) => m.ScannerDialog));

/**
 * ScanCodesButton opens the camera scanner for a list the caller keeps: every code found goes
 * to onCode, one after another, until Done. CodeEntry puts it beside the typed serial, for the
 * pack field and for the screens that scan more packs than a movement names (the stocktake: a
 * whole shelf).
 */
export function ScanCodesButton({ text = "Scan", label, count, list, onCode, onUnavailable, ...button }: ScanCodesButtonProps) {
  const [open, setOpen] = React.useState(false);
  const [opened, setOpened] = React.useState(false);
  const preload = () => void scannerDialog.preload().catch(() => undefined);
  return (
    <>
      <Button
        type="button"
        {...button}
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
      {opened && <Lazy of={scannerDialog} open={open} onOpenChange={setOpen} {...{ label, count, list, onCode, onUnavailable }} />}
    </>
  );
}
