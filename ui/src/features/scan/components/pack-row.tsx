import { XIcon } from "lucide-react";
import type * as React from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

/** PackRowProps: the pack's serial, the line under it, whether it is a problem, and how it is removed. */
export type PackRowProps = {
  serial: string;
  /** title replaces the serial's text (a link to the pack's page) */
  title?: React.ReactNode;
  /** detail is the line under the serial (undefined: none) */
  detail: React.ReactNode;
  /** problem shows the row and its detail red; problemBg is the row's red (the scan field's is stronger) */
  problem?: boolean;
  problemBg?: string;
  /** mark comes before the serial (a tick) */
  mark?: React.ReactNode;
  /** onRemove, when given, is the row's "Remove <serial>" button (the event: where its focus should go) */
  onRemove?: (e: React.MouseEvent<HTMLButtonElement>) => void;
  disabled?: boolean;
};

/** PackRow is one pack of a scanned list: its serial in monospace, a line about it, and its Remove button. */
export function PackRow({ serial, title, detail, problem, problemBg = "bg-destructive/5", mark, onRemove, disabled }: PackRowProps) {
  return (
    <li className={cn("flex items-center gap-2 px-3 py-2 text-sm", problem && problemBg)}>
      {mark}
      <div className="min-w-0 flex-1">
        <div className="font-mono font-medium break-all">{title ?? serial}</div>
        {detail !== undefined && <div className={cn("text-xs", problem ? "font-medium text-destructive" : "text-muted-foreground")}>{detail}</div>}
      </div>
      {onRemove && (
        <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${serial}`} disabled={disabled} onClick={onRemove}>
          <XIcon />
        </Button>
      )}
    </li>
  );
}
