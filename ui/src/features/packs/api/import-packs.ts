import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { invalidateUrls } from "@/lib/invalidation";

/** ImportRow is one CSV row as the preview shows it; errors say why it cannot be imported. */
export type ImportRow = {
  line: number;
  serial: string;
  model: string;
  lot: string;
  state: string;
  errors: string[];
};

/** ImportResult is POST /api/admin/packs/import's answer: the preview (dryRun) or the import. */
export type ImportResult = { dryRun: boolean; rows: ImportRow[]; valid: number; invalid: number; imported: number };

/** useImportPacks sends a CSV: dryRun previews it (nothing written), else imports it all or nothing. */
export function useImportPacks() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ csv, dryRun, idempotencyKey }: { csv: string; dryRun: boolean; idempotencyKey: string }) =>
      apiRequest<ImportResult>("POST", "/api/admin/packs/import", { csv, dryRun }, { idempotencyKey }),
    onSuccess: (res) => (res.dryRun ? undefined : invalidateUrls(qc, ["/api/packs"])),
  });
}
