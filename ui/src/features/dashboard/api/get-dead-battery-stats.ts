import { queryOptions, useQuery } from "@tanstack/react-query";
import { STATE_POLL_MS } from "@/lib/state";

/** DeadBatteryStats are the dead batteries the caller dropped today, this week and last week. */
export type DeadBatteryStats = { daily: number; weekly: number; lastWeek: number };

/** deadBatteryStatsQueryOptions: GET /api/driver/dead-battery-stats, refreshed with the state. */
export const deadBatteryStatsQueryOptions = queryOptions<DeadBatteryStats>({
  queryKey: ["/api/driver/dead-battery-stats"],
  meta: { staleOn: ["ACTIVITY_UPDATED", "driverOps", "activity"] },
  refetchInterval: STATE_POLL_MS,
});

/** useDeadBatteryStats reads the caller's dead-battery figures. */
export function useDeadBatteryStats() {
  return useQuery(deadBatteryStatsQueryOptions);
}
