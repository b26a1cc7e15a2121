import type { QueryClient } from "@tanstack/react-query";

/**
 * INVALIDATIONS is the one map from what happened to the queries it makes stale: the realtime
 * messages (spec part 1 §7, then ours) and each kind of mutation. Query keys are the URLs
 * (spec part 1 §9), so a URL here covers its ?weekOffset=… variants too. A change that can
 * touch any figure (an emergency override, a recalculation) refetches everything instead.
 */
export const INVALIDATIONS = {
  INVENTORY_UPDATED: [
    "/api/inventory",
    "/api/admin/weekly-stats",
    "/api/admin/active-pickups",
    // ours: stats on every dashboard, and who holds which batteries
    "/api/state",
    "/api/admin/battery-holders",
    "/api/liaison/battery-holders",
  ],
  ACTIVITY_UPDATED: [
    "/api/admin/weekly-activity",
    "/api/driver/weekly-activity",
    "/api/admin/recent-activity",
    // ours: the dashboards' feeds and daily/weekly figures
    "/api/state",
    "/api/driver/recent-movements",
    "/api/driver/dead-battery-stats",
  ],
  CHARGING_UPDATED: [
    "/api/admin/charging-sessions",
    "/api/inventory",
    // ours: the sessions and ETAs on the dashboards and the liaison view
    "/api/state",
    "/api/liaison/charging-sessions",
  ],
  /** a pickup or dropoff: the figures, the feeds, who holds what */
  driverOps: [
    "/api/state",
    "/api/driver/recent-movements",
    "/api/driver/dead-battery-stats",
    "/api/driver/weekly-activity",
    "/api/admin/recent-activity",
    "/api/admin/weekly-activity",
    "/api/admin/active-pickups",
    "/api/admin/battery-holders",
    "/api/inventory",
  ],
  /** a logged activity, or a movement edited or deleted: every read a movement touches */
  activity: [
    "/api/state",
    "/api/admin/weekly-activity",
    "/api/driver/weekly-activity",
    "/api/admin/recent-activity",
    "/api/driver/recent-movements",
    "/api/driver/dead-battery-stats",
    "/api/admin/weekly-stats",
    "/api/admin/active-pickups",
    "/api/admin/battery-holders",
    "/api/liaison/battery-holders",
    "/api/inventory",
  ],
  /** a charging session started, completed, resized or deleted */
  charging: [
    "/api/admin/charging-sessions",
    "/api/liaison/charging-sessions",
    "/api/state",
    "/api/inventory",
    "/api/admin/recent-activity",
  ],
  /** an assignment, swap or dead-battery transfer, or assignments deleted */
  custody: [
    "/api/admin/battery-holders",
    "/api/liaison/battery-holders",
    "/api/state",
    "/api/inventory",
    "/api/admin/active-pickups",
    "/api/admin/recent-activity",
  ],
} as const satisfies Record<string, readonly string[]>;

/** Change names an entry of INVALIDATIONS, or "everything". */
export type Change = keyof typeof INVALIDATIONS | "everything";

function urlPath(key: unknown): string | null {
  return typeof key === "string" ? key.split("?")[0]! : null;
}

/**
 * invalidateUrls marks stale (and refetches, when observed) every query whose key starts
 * with one of urls, ignoring query strings and further key parts.
 */
export function invalidateUrls(queryClient: QueryClient, urls: readonly string[]): Promise<void> {
  const wanted = new Set(urls);
  return queryClient.invalidateQueries({
    predicate: (query) => {
      const path = urlPath(query.queryKey[0]);
      return path !== null && wanted.has(path);
    },
  });
}

/** invalidate refetches what change makes stale (every query for "everything"). */
export function invalidate(queryClient: QueryClient, change: Change): Promise<void> {
  if (change === "everything") return queryClient.invalidateQueries();
  return invalidateUrls(queryClient, INVALIDATIONS[change]);
}
