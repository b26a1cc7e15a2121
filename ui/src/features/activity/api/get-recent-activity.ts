import { queryOptions, useQuery } from "@tanstack/react-query";
import type { StateMovement } from "@/lib/state";
import type { ActivityUser } from "@/lib/weekly-activity";

/** FEED_POLL_MS is the activity feeds' polling interval (spec part 1 §9). */
export const FEED_POLL_MS = 60_000;

/**
 * FeedMovement is one activity entry (spec part 1 §3): a movement as /api/state lists it; the
 * admin feed adds actor, the good and dead counts and the discrepancy flag.
 */
export type FeedMovement = StateMovement & {
  actor?: ActivityUser | null;
  goodBatteries?: number;
  deadBatteries?: number;
  discrepancy?: boolean;
  /** occurredAt is the tap's time when the server gives it (DESIGN.md §12); else createdAt. */
  occurredAt?: string;
  /** pending marks a queued action not yet sent (the driver's outbox), shown "waiting to send". */
  pending?: boolean;
  /** meta is the movement's structured detail (notes as typed, assignment type, counts, a swap's two drivers). */
  meta?: MovementMeta;
};

/** MovementMeta is what the ledger records beside a movement's notes (modules/activity MovementMeta). */
export type MovementMeta = {
  userNotes: string;
  assignmentType?: string;
  good: number;
  dead: number;
  from?: ActivityUser;
  to?: ActivityUser;
};

/** adminRecentActivityQueryOptions: GET /api/admin/recent-activity (latest 100, full notes), 60 s. */
export const adminRecentActivityQueryOptions = queryOptions<FeedMovement[]>({
  queryKey: ["/api/admin/recent-activity"],
  meta: { staleOn: ["ACTIVITY_UPDATED", "driverOps", "activity", "charging", "custody"] },
  refetchInterval: FEED_POLL_MS,
});

/** driverRecentMovementsQueryOptions: GET /api/driver/recent-movements (the caller's own), 60 s. */
export const driverRecentMovementsQueryOptions = queryOptions<FeedMovement[]>({
  queryKey: ["/api/driver/recent-movements"],
  meta: { staleOn: ["ACTIVITY_UPDATED", "driverOps", "activity"] },
  refetchInterval: FEED_POLL_MS,
});

/** useAdminRecentActivity reads the admin feed. */
export function useAdminRecentActivity({ enabled = true } = {}) {
  return useQuery({ ...adminRecentActivityQueryOptions, enabled });
}

/** useDriverRecentMovements reads the caller's own feed. */
export function useDriverRecentMovements({ enabled = true } = {}) {
  return useQuery({ ...driverRecentMovementsQueryOptions, enabled });
}
