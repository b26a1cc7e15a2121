import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invalidate } from "@/lib/invalidation";
import { apiRequest } from "@/lib/api-client";

/** RecalculateResult is the answer: the counts after and the corrections made, as text. */
export type RecalculateResult = {
  message?: string;
  after?: { ready: number; waiting: number; charging: number; inField?: number; total: number; unaccounted?: number };
  corrections?: string[];
};

/** recalculateInventory rebuilds the counts from movement history (POST /api/admin/recalculate-inventory). */
export function recalculateInventory({ idempotencyKey }: { idempotencyKey: string }): Promise<RecalculateResult> {
  return apiRequest<RecalculateResult>("POST", "/api/admin/recalculate-inventory", {}, { idempotencyKey });
}

/** useRecalculateInventory recalculates and refreshes every screen's data. */
export function useRecalculateInventory() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: recalculateInventory, onSettled: () => invalidate(qc, "everything") });
}

/** recalculatedSummary is the 'Inventory Recalculated' toast's text: the counts, then any corrections. */
export function recalculatedSummary(r: RecalculateResult): string {
  const parts: string[] = [];
  if (r.after) {
    parts.push(`Ready: ${r.after.ready}, Waiting: ${r.after.waiting}, Charging: ${r.after.charging}, Total: ${r.after.total}`);
  }
  if (r.corrections && r.corrections.length > 0) parts.push(`Corrections: ${r.corrections.join("; ")}`);
  else parts.push("No corrections needed");
  return parts.join(". ");
}
