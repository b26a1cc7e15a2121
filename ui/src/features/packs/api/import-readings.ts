import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, apiRequest } from "@/lib/api-client";
import { invalidate } from "@/lib/invalidation";

/** READINGS_REQUIRED are the columns every readings CSV has (any order, named in its header). */
export const READINGS_REQUIRED = ["serial", "time", "source"] as const;

/** READINGS_OPTIONAL are the columns a readings CSV may add (DESIGN.md §16). */
export const READINGS_OPTIONAL = ["energyWh", "socFrom", "socTo", "fullAh", "designAh", "fullWh", "designWh", "cycles", "soh", "maxTempC", "faults"] as const;

/** RowError names one bad row: its line in the file, its serial, what is wrong. */
export type RowError = { line: number; serial: string; message: string };

/** ReadingsPreview is the dry run's answer: the rows and packs it would write, and every bad row. */
export type ReadingsPreview = { rows: number; packs: number; errors: RowError[] };

/** ReadingsImported is the import's answer; worn lists the packs worn after it. */
export type ReadingsImported = { success: boolean; message: string; rows: number; packs: number; worn: string[] };

const URL = "/api/admin/packs/readings";

/** refusedRows reads an import refusal's data.rows (the bad rows, nothing written); [] when it names none. */
export function refusedRows(error: unknown): RowError[] {
  if (!(error instanceof ApiError)) return [];
  const rows = (error.data as { rows?: unknown } | undefined)?.rows;
  if (!Array.isArray(rows)) return [];
  return rows.flatMap((r: unknown) => {
    if (!r || typeof r !== "object") return [];
    const { line, serial, message } = r as Record<string, unknown>;
    return typeof line === "number" ? [{ line, serial: typeof serial === "string" ? serial : "", message: typeof message === "string" ? message : "" }] : [];
  });
}

/** usePreviewReadings checks a CSV of readings without writing anything (dryRun). */
export function usePreviewReadings() {
  return useMutation({
    mutationFn: ({ csv, idempotencyKey }: { csv: string; idempotencyKey: string }) =>
      apiRequest<ReadingsPreview>("POST", URL, { csv, dryRun: true }, { idempotencyKey }),
  });
}

/** useImportReadings writes a CSV of readings, all rows or none; the packs, models and health refetch. */
export function useImportReadings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ csv, idempotencyKey }: { csv: string; idempotencyKey: string }) =>
      apiRequest<ReadingsImported>("POST", URL, { csv, dryRun: false }, { idempotencyKey }),
    onSuccess: () => invalidate(qc, "packs"),
  });
}
