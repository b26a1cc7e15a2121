import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type BatteryStats, type StatKey, stateQueryOptions } from "@/lib/state";
import { apiRequest } from "@/lib/api-client";

/** StatsBody is the full stats object POST /api/admin/update-stats takes. */
export type StatsBody = Record<StatKey, number>;

/** statsBody is the current stats with one figure replaced (spec part 1 §7). */
export function statsBody(stats: BatteryStats, key: StatKey, value: number): StatsBody {
  const body: StatsBody = {
    total: stats.total,
    ready: stats.ready,
    waiting: stats.waiting,
    charging: stats.charging,
    inField: stats.inField,
  };
  body[key] = value;
  return body;
}

/** updateStats sets the battery figures (admins). */
export function updateStats(body: StatsBody, idempotencyKey?: string) {
  return apiRequest<{ success: boolean; message: string; stats: BatteryStats }>("POST", "/api/admin/update-stats", body, {
    idempotencyKey,
  });
}

/** useUpdateStats saves a stat edit, then refreshes /api/state. */
export function useUpdateStats() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: StatsBody; idempotencyKey?: string }) => updateStats(body, idempotencyKey),
    onSuccess: () => qc.invalidateQueries({ queryKey: stateQueryOptions.queryKey }),
  });
}
