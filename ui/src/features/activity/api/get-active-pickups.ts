import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ActivityUser } from "@/lib/weekly-activity";
import { FEED_POLL_MS } from "@/features/activity/api/get-recent-activity";

/** ActivePickup is an open pickup holding: who holds how many since when. */
export type ActivePickup = { id: string; user: ActivityUser; quantity: number; date: string };

/** activePickupsQueryOptions: GET /api/admin/active-pickups, 60 s. */
export const activePickupsQueryOptions = queryOptions<ActivePickup[]>({
  queryKey: ["/api/admin/active-pickups"],
  meta: { staleOn: ["INVENTORY_UPDATED", "driverOps", "activity", "custody"] },
  refetchInterval: FEED_POLL_MS,
});

/** useActivePickups reads the open pickups (admins). */
export function useActivePickups() {
  return useQuery(activePickupsQueryOptions);
}
