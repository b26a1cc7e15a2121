import type { QueryClient } from "@tanstack/react-query";
import { batteryHoldersQueryOptions } from "@/features/custody/api/get-battery-holders";

/** CUSTODY_DEPENDENT_KEYS are other screens' data a custody change alters (URLs are the keys). */
const CUSTODY_DEPENDENT_KEYS = [
  ["/api/liaison/battery-holders"],
  ["/api/state"],
  ["/api/inventory"],
  ["/api/admin/active-pickups"],
  ["/api/admin/recent-activity"],
] as const;

/** invalidateCustody refetches every query an assignment, swap or transfer changes. */
export function invalidateCustody(qc: QueryClient): Promise<unknown> {
  return Promise.all([
    qc.invalidateQueries({ queryKey: batteryHoldersQueryOptions.queryKey }),
    ...CUSTODY_DEPENDENT_KEYS.map((queryKey) => qc.invalidateQueries({ queryKey })),
  ]);
}
