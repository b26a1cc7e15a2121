import * as React from "react";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { ScrollTable } from "@/components/ui/scroll-table";
import { type Column, TableColumns } from "@/components/table-columns";
import { useImportPacks, type ImportResult } from "@/features/packs/api/import-packs";
import { CsvImportDialog } from "@/features/packs/components/csv-import-dialog";
import { CsvSource } from "@/features/packs/components/csv-source";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { newIdempotencyKey } from "@/lib/idempotency";

const COLUMNS = "serial, model, chemistry, nominalWh, manufacturer, lot, manufactured, inServiceSince, state";

/** PREVIEW_COLUMNS: the preview's table, a row per CSV line with its problems (or OK). */
const PREVIEW_COLUMNS: readonly Column<ImportResult["rows"][number]>[] = [
  { head: "Line", cell: (r) => r.line },
  { head: "Serial", cell: (r) => r.serial, className: "font-mono" },
  {
    head: "Problems",
    cell: (r) => (r.errors.length ? r.errors.join("; ") : "OK"),
    className: (r) => (r.errors.length ? "min-w-48 whitespace-normal text-destructive" : "text-muted-foreground"),
  },
  { head: "Model", cell: (r) => r.model },
  { head: "Lot", cell: (r) => r.lot },
];

/**
 * ImportPacksDialog imports a CSV of existing packs: a preview first (each bad row named with
 * its line and why; nothing written), then a confirm that writes every row or none.
 */
export function ImportPacksDialog() {
  const [open, setOpen] = React.useState(false);
  const [csv, setCsv] = React.useState("");
  const [preview, setPreview] = React.useState<ImportResult | null>(null);
  const run = useImportPacks();
  const onOpenChange = (o: boolean) => {
    setOpen(o);
    if (!o) {
      setCsv("");
      setPreview(null);
    }
  };
  const send = (dryRun: boolean) =>
    run.mutate(
      { csv, dryRun, idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: (res) => {
          if (res.dryRun) {
            setPreview(res);
            return;
          }
          toast({ title: `${res.imported} packs imported` });
          onOpenChange(false);
        },
        onError: (e) => toast({ title: "Import failed", description: errorMessage(e, "Import failed"), variant: "destructive" }),
      },
    );
  return (
    <CsvImportDialog
      trigger="Import CSV"
      title="Import packs"
      open={open}
      onOpenChange={onOpenChange}
      description={`A header row, then one pack a row. Columns: ${COLUMNS} (serial and model required).`}
    >
      <CsvSource
        csv={csv}
        onChange={(text) => {
          setCsv(text);
          setPreview(null);
        }}
      />
      {preview && (
        <div className="space-y-2">
          <p role="status" className="text-sm">
            {preview.valid} of {preview.rows.length} rows can be imported
            {preview.invalid > 0 ? `; ${preview.invalid === 1 ? "1 row has" : `${preview.invalid} rows have`} problems — fix them and preview again.` : "."}
          </p>
          <ScrollTable label="Import preview" className="text-xs">
            <TableColumns columns={PREVIEW_COLUMNS} rows={preview.rows} rowKey={(r) => String(r.line)} />
          </ScrollTable>
        </div>
      )}
      <DialogFooter>
        <Button variant="outline" disabled={!csv.trim() || run.isPending} onClick={() => send(true)}>
          Preview
        </Button>
        <Button disabled={!preview || preview.invalid > 0 || run.isPending} onClick={() => send(false)}>
          {preview && preview.invalid === 0 ? `Import ${preview.valid} packs` : "Import"}
        </Button>
      </DialogFooter>
    </CsvImportDialog>
  );
}
