import type * as React from "react";

/**
 * PackListSlot lays out a form's pack scan field (features/scan's PackScanField, given as
 * children) with, under it, a refusal of the list as a whole (a count: "Name exactly 3 packs
 * for 3 batteries (2 named)"); a refusal of one pack shows on that pack's row instead.
 */
export function PackListSlot({ error, className, children }: { error?: string; className?: string; children: React.ReactNode }) {
  return (
    <div className={className ? `grid min-w-0 gap-1 ${className}` : "grid min-w-0 gap-1"}>
      {children}
      {error && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
