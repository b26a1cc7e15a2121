import type { QueryClient } from "@tanstack/react-query";

// Every read a movement change can touch. Keys are the URLs; a prefix covers ?weekOffset=-1.
const ACTIVITY_URLS = [
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
];

/** invalidateActivity refetches what a logged activity or a movement change touches. */
export function invalidateActivity(qc: QueryClient): Promise<void> {
  return qc.invalidateQueries({
    predicate: (q) => typeof q.queryKey[0] === "string" && ACTIVITY_URLS.includes(q.queryKey[0].split("?")[0]!),
  });
}
