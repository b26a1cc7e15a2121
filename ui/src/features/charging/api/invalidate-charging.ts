import type { QueryClient } from "@tanstack/react-query";
import {
  adminChargingSessionsQueryOptions,
  liaisonChargingSessionsQueryOptions,
} from "@/features/charging/api/get-charging-sessions";

/**
 * CHARGING_DEPENDENT_KEYS are the other screens' data a charging change alters: the state
 * (stats, the drivers' ETA list) and the inventory panel. Their URLs are their query keys.
 */
const CHARGING_DEPENDENT_KEYS = [["/api/state"], ["/api/inventory"], ["/api/admin/recent-activity"]] as const;

/** invalidateCharging refetches every query a charging mutation changes. */
export function invalidateCharging(qc: QueryClient): Promise<unknown> {
  return Promise.all([
    qc.invalidateQueries({ queryKey: adminChargingSessionsQueryOptions.queryKey }),
    qc.invalidateQueries({ queryKey: liaisonChargingSessionsQueryOptions.queryKey }),
    ...CHARGING_DEPENDENT_KEYS.map((queryKey) => qc.invalidateQueries({ queryKey })),
  ]);
}
