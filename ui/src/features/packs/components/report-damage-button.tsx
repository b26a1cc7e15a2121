import { TriangleAlertIcon } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Lazy, loadable } from "@/lib/loadable";

// The dialog carries the form, zod and the Radix dialog: fetched the first time it opens, not
// with the driver's home (DESIGN.md §10).
const reportDamageDialog = loadable(() => import("@/features/packs/components/report-damage-dialog").then((m) => m.ReportDamageDialog));

/**
 * ReportDamageButton opens the damage report (DESIGN.md §14): on the driver's home beside the
 * dropoff (any pack, one of theirs a tap away) and on a pack's page (that pack).
 */
export function ReportDamageButton({ serial, label = "Report a damaged pack", className }: { serial?: string; label?: string; className?: string }) {
  const [open, setOpen] = React.useState(false);
  // kept mounted once opened: the closing dialog returns focus to this button
  const [used, setUsed] = React.useState(false);
  return (
    <>
      <Button type="button" variant="outline" className={className} onClick={() => {
          setUsed(true);
          setOpen(true);
        }} onPointerEnter={() => void reportDamageDialog.preload()}>
        <TriangleAlertIcon aria-hidden className="text-destructive" />
        {label}
      </Button>
      {used && <Lazy of={reportDamageDialog} open={open} onOpenChange={setOpen} serial={serial} />}
    </>
  );
}
