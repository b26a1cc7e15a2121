import type { QueryClient } from "@tanstack/react-query";

// What a pickup or dropoff changes: the figures, the feeds, who holds what. Keys are URLs.
const URLS = [
  "/api/state",
  "/api/driver/recent-movements",
  "/api/driver/dead-battery-stats",
  "/api/driver/weekly-activity",
  "/api/admin/recent-activity",
  "/api/admin/weekly-activity",
  "/api/admin/active-pickups",
  "/api/admin/battery-holders",
  "/api/inventory",
];

/** invalidateDriverOps refetches what a recorded pickup or dropoff touches. */
export function invalidateDriverOps(qc: QueryClient): Promise<void> {
  return qc.invalidateQueries({
    predicate: (q) => typeof q.queryKey[0] === "string" && URLS.includes(q.queryKey[0].split("?")[0]!),
  });
}
