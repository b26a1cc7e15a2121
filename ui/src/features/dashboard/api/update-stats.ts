import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type BatteryStats, type StatKey } from "@/lib/state";
import { afterWrite } from "@/lib/invalidation";
import { ApiError, apiRequest } from "@/lib/api-client";

/**
 * StatEdit is POST /api/admin/update-stats's body: the one figure edited, its new value, and
 * the value shown when the edit began. Only that figure moves, and the server refuses (409,
 * STAT_CHANGED) when it changed meanwhile, so a dropoff landing during the edit is never
 * silently undone.
 */
export type StatEdit = { stat: StatKey; value: number; from: number };

/** STAT_CHANGED is the code of the 409 for a figure that changed while it was being edited. */
export const STAT_CHANGED = "stat_changed";

/** isStatChanged reports the server's refusal of an edit made from an old figure. */
export function isStatChanged(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && error.code === STAT_CHANGED;
}

/** updateStats sets one battery figure (admins). */
export function updateStats(body: StatEdit, idempotencyKey?: string) {
  return apiRequest<{ success: boolean; message: string; stats: BatteryStats }>("POST", "/api/admin/update-stats", body, {
    idempotencyKey,
  });
}

/** useUpdateStats saves a stat edit, then refreshes /api/state (also when the figure had changed meanwhile). */
export function useUpdateStats() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: StatEdit; idempotencyKey?: string }) => updateStats(body, idempotencyKey),
    onSuccess: (answer) => afterWrite(qc, "stats", answer),
    onError: (error) => {
      if (isStatChanged(error)) void afterWrite(qc, "stats");
    },
  });
}
