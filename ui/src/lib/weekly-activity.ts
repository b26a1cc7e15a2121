import type { MetaNotes } from "@/lib/format-ops";
import { queryOptions, useQuery } from "@tanstack/react-query";

/** ACTIVITY_POLL_MS is the weekly activity's polling interval (spec part 1 §9). */
export const ACTIVITY_POLL_MS = 60_000;

/** WeekOffset picks the week: 0 the current one, -1 last week. */
export type WeekOffset = 0 | -1;

/** ActivityUser is the driver of a breakdown row. */
export type ActivityUser = { id: string; firstName: string; lastName: string; email?: string; role?: string };

/** DriverActivity is one movement of a driver's week (notes are absent for the liaison). */
export type DriverActivity = { id: string; type: string; quantity: number; notes: string; createdAt: string; meta?: MetaNotes };

/**
 * DriverWeek is one driver's week in the admin breakdown. activities is absent from the
 * dashboards' summary (?activities=none); an expanded card asks for them (features/activity/api/get-driver-week-activities.ts).
 */
export type DriverWeek = {
  user: ActivityUser;
  activities?: DriverActivity[];
  deadBatteriesTotal: number;
  rebalanceTotal: number;
  retrievesRepairsTotal: number;
  totalActivities: number;
};

/** AdminWeeklyActivity is GET /api/admin/weekly-activity (spec part 1 §3). */
export type AdminWeeklyActivity = {
  weekStart: string;
  weekEnd: string;
  weeklyTotals: { rebalanceTotal: number; retrievesRepairsTotal: number };
  days: { date: string; rebalanceQty: number; retrievesRepairsQty: number }[];
  driverBreakdown: DriverWeek[];
};

/**
 * adminWeeklyActivityUrl is the dashboards' call (and query key) for a week: the summary,
 * without each driver's activity list, which in a busy week is nearly all of the full answer
 * (over 100 KB compressed, polled every 60 s).
 */
export function adminWeeklyActivityUrl(weekOffset: WeekOffset): string {
  return `/api/admin/weekly-activity?${weekOffset === 0 ? "" : `weekOffset=${weekOffset}&`}activities=none`;
}


/**
 * adminWeeklyActivityQueryOptions: polled every 60 s and never fresh ('no staleness'); for
 * admins and the liaison only.
 */
export function adminWeeklyActivityQueryOptions(weekOffset: WeekOffset) {
  return queryOptions<AdminWeeklyActivity>({
    queryKey: [adminWeeklyActivityUrl(weekOffset)],
    meta: { staleOn: ["ACTIVITY_UPDATED", "driverOps", "activity"] },
    refetchInterval: ACTIVITY_POLL_MS,
    staleTime: 0,
  });
}

/** useAdminWeeklyActivity reads a week; enabled false skips the call (e.g. last week until chosen). */
export function useAdminWeeklyActivity(weekOffset: WeekOffset, { enabled = true, silent = false } = {}) {
  const options = adminWeeklyActivityQueryOptions(weekOffset);
  return useQuery({ ...options, enabled, meta: { ...options.meta, silentError: silent } });
}
