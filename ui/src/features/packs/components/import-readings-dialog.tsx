import * as React from "react";
import { Link } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { ScrollTable } from "@/components/ui/scroll-table";
import { type Column, TableColumns } from "@/components/table-columns";
import { paths } from "@/config/paths";
import {
  READINGS_OPTIONAL,
  READINGS_REQUIRED,
  refusedRows,
  useImportReadings,
  usePreviewReadings,
  type ReadingsImported,
  type ReadingsPreview,
  type RowError,
} from "@/features/packs/api/import-readings";
import { CsvImportDialog } from "@/features/packs/components/csv-import-dialog";
import { CsvSource } from "@/features/packs/components/csv-source";
import { packPath } from "@/features/packs/utils/pack-path";
import { plural } from "@/features/packs/utils/plural";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { newIdempotencyKey } from "@/lib/idempotency";

/** ERROR_COLUMNS: the table of rows with problems, one row per problem. */
const ERROR_COLUMNS: readonly Column<RowError>[] = [
  { head: "Line", cell: (r) => r.line },
  { head: "Serial", cell: (r) => r.serial, className: "font-mono" },
  { head: "Problem", cell: (r) => r.message, className: "min-w-48 whitespace-normal text-destructive" },
];

/** PREVIEW_DELAY_MS: the preview follows the CSV this long after the last change (a live preview, not one per keystroke). */
export const PREVIEW_DELAY_MS = 600;

/** previewText says what a preview found: what can be imported, or how many rows to fix. */
export function previewText(p: ReadingsPreview): string {
  if (p.errors.length > 0) {
    const bad = new Set(p.errors.map((e) => e.line)).size;
    return `${plural(bad, "row has", "rows have")} problems — fix ${bad === 1 ? "it" : "them"} and the preview follows. Nothing was imported.`;
  }
  return `${plural(p.rows, "reading", "readings")} for ${plural(p.packs, "pack", "packs")} can be imported.`;
}

/**
 * ImportReadingsDialog imports a CSV of pack readings (BMS or charger; DESIGN.md §16): pasted
 * or chosen, previewed as it changes (every bad row named with its line and why; nothing
 * written), then applied all rows or none. The answer names the packs worn after it.
 */
export function ImportReadingsDialog() {
  const [open, setOpen] = React.useState(false);
  const [csv, setCsv] = React.useState("");
  const [preview, setPreview] = React.useState<{ csv: string; answer: ReadingsPreview } | null>(null);
  const [refused, setRefused] = React.useState<RowError[]>([]);
  const [done, setDone] = React.useState<ReadingsImported | null>(null);
  const check = usePreviewReadings();
  const apply = useImportReadings();
  const applyKey = React.useRef(newIdempotencyKey());
  const latest = React.useRef(csv);
  latest.current = csv;
  const onOpenChange = (o: boolean) => {
    setOpen(o);
    if (!o) {
      setCsv("");
      setPreview(null);
      setRefused([]);
      setDone(null);
      applyKey.current = newIdempotencyKey();
    }
  };
  const { mutate: runPreview } = check;
  const previewNow = React.useCallback(
    (text: string) =>
      runPreview(
        { csv: text, idempotencyKey: newIdempotencyKey() },
        {
          // an answer for a CSV changed since is dropped: the preview always describes what Apply would send
          onSuccess: (answer) => latest.current === text && setPreview({ csv: text, answer }),
          onError: (e) => latest.current === text && toast({ title: "Preview failed", description: errorMessage(e, "Preview failed"), variant: "destructive" }),
        },
      ),
    [runPreview],
  );
  React.useEffect(() => {
    if (!open || !csv.trim()) return;
    const t = setTimeout(() => previewNow(csv), PREVIEW_DELAY_MS);
    return () => clearTimeout(t);
  }, [open, csv, previewNow]);
  const change = (text: string) => {
    setCsv(text);
    setPreview(null);
    setRefused([]);
    applyKey.current = newIdempotencyKey();
  };
  const current = preview?.csv === csv ? preview.answer : null;
  const errors = refused.length > 0 ? refused : (current?.errors ?? []);
  const canApply = !!current && current.errors.length === 0 && current.rows > 0 && refused.length === 0 && !apply.isPending;
  const onApply = () =>
    apply.mutate(
      { csv, idempotencyKey: applyKey.current },
      {
        onSuccess: (res) => {
          setDone(res);
          applyKey.current = newIdempotencyKey();
          toast({ title: res.message || `${plural(res.rows, "reading", "readings")} imported for ${plural(res.packs, "pack", "packs")}` });
        },
        onError: (e) => {
          const rows = refusedRows(e);
          if (rows.length > 0) setRefused(rows);
          toast({ title: "Import failed", description: errorMessage(e, "Import failed"), variant: "destructive" });
        },
      },
    );
  return (
    <CsvImportDialog
      trigger="Import readings"
      title="Import readings"
      open={open}
      onOpenChange={onOpenChange}
      description={
        <>
          Readings from the packs&apos; BMS or the chargers: a header row naming the columns (any order), then one reading a row. Time is RFC 3339 or
          YYYY-MM-DD HH:MM in the operation&apos;s time zone; source is bms or charger.
        </>
      }
    >
      {done ? (
        <div className="space-y-3">
          <p role="status">{done.message || `${plural(done.rows, "reading", "readings")} imported for ${plural(done.packs, "pack", "packs")}`}</p>
          {done.worn.length > 0 ? (
            <div className="space-y-1">
              <p className="text-sm font-medium">Worn now: {plural(done.worn.length, "pack", "packs")}</p>
              <ul aria-label="Worn packs" className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
                {done.worn.map((serial) => (
                  <li key={serial}>
                    <Link to={packPath(serial)} className="font-mono underline underline-offset-4" onClick={() => onOpenChange(false)}>
                      {serial}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">No pack is worn after this import.</p>
          )}
          <DialogFooter>
            {done.worn.length > 0 && (
              <ButtonLink variant="outline" to={`${paths.packs.path}?worn=1`} onClick={() => onOpenChange(false)}>
                See worn packs
              </ButtonLink>
            )}
            <Button onClick={() => onOpenChange(false)}>Done</Button>
          </DialogFooter>
        </div>
      ) : (
        <>
          <div className="grid gap-3">
            <div className="space-y-1 text-sm">
              <p className="font-medium">Expected header</p>
              <code className="block rounded bg-muted px-2 py-1 text-xs break-all">{READINGS_REQUIRED.join(",")}</code>
              <p className="text-muted-foreground">
                Required: {READINGS_REQUIRED.join(", ")}. Optional: {READINGS_OPTIONAL.join(", ")}.
              </p>
            </div>
            <CsvSource csv={csv} onChange={change} />
          </div>
          <div aria-live="polite" className="space-y-2">
            {refused.length > 0 ? (
              <p role="status" className="text-sm text-destructive">
                The import was refused: {plural(new Set(refused.map((r) => r.line)).size, "row has", "rows have")} problems. Nothing was imported.
              </p>
            ) : current ? (
              <p role="status" className={current.errors.length > 0 ? "text-sm text-destructive" : "text-sm"}>
                {previewText(current)}
              </p>
            ) : (
              csv.trim() && <p className="text-sm text-muted-foreground">{check.isPending ? "Checking…" : "The preview follows the CSV."}</p>
            )}
            {errors.length > 0 && (
              <ScrollTable label="Rows with problems" className="text-xs">
                <TableColumns columns={ERROR_COLUMNS} rows={errors} rowKey={(r, i) => `${r.line}-${i}`} />
              </ScrollTable>
            )}
          </div>
          <DialogFooter>
            <Button variant="outline" disabled={!csv.trim() || check.isPending} onClick={() => previewNow(csv)}>
              Preview
            </Button>
            <Button disabled={!canApply} onClick={onApply}>
              {current && current.errors.length === 0 && current.rows > 0 && refused.length === 0 ? `Apply ${plural(current.rows, "reading", "readings")}` : "Apply"}
            </Button>
          </DialogFooter>
        </>
      )}
    </CsvImportDialog>
  );
}
