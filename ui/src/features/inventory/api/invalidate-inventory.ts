import type { QueryClient } from "@tanstack/react-query";

/**
 * invalidateAll refetches every cached query: an override or a recalculation can change
 * any figure on any screen (the realtime EMERGENCY_OVERRIDE message does the same).
 */
export function invalidateAll(qc: QueryClient): Promise<unknown> {
  return qc.invalidateQueries();
}
