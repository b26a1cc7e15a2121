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
 * dashboards' summary (?activities=none); an expanded card asks for them (useDriverWeekActivities).
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
  return weekOffset === 0 ? "/api/admin/weekly-activity?activities=none" : `/api/admin/weekly-activity?weekOffset=${weekOffset}&activities=none`;
}

/** driverWeekActivitiesUrl is the call (and query key) for one user's activities of a week. */
export function driverWeekActivitiesUrl(userId: string, weekOffset: WeekOffset = 0): string {
  const week = weekOffset === 0 ? "" : `weekOffset=${weekOffset}&`;
  return `/api/admin/weekly-activity?${week}user=${encodeURIComponent(userId)}`;
}

/**
 * adminWeeklyActivityQueryOptions: polled every 60 s and never fresh ('no staleness'); for
 * admins and the liaison only.
 */
export function adminWeeklyActivityQueryOptions(weekOffset: WeekOffset) {
  return queryOptions<AdminWeeklyActivity>({
    queryKey: [adminWeeklyActivityUrl(weekOffset)],
    refetchInterval: ACTIVITY_POLL_MS,
    staleTime: 0,
  });
}

/** useAdminWeeklyActivity reads a week; enabled false skips the call (e.g. last week until chosen). */
export function useAdminWeeklyActivity(weekOffset: WeekOffset, { enabled = true, silent = false } = {}) {
  return useQuery({ ...adminWeeklyActivityQueryOptions(weekOffset), enabled, meta: { silentError: silent } });
}

/**
 * useDriverWeekActivities reads one user's activities of the week, for an expanded card:
 * polled with the week, and refreshed by the same invalidations (the key shares its path).
 */
export function useDriverWeekActivities(userId: string, weekOffset: WeekOffset = 0) {
  return useQuery({
    queryKey: [driverWeekActivitiesUrl(userId, weekOffset)],
    refetchInterval: ACTIVITY_POLL_MS,
    staleTime: 0,
    meta: { silentError: true },
    select: (week: AdminWeeklyActivity) => week.driverBreakdown.find((d) => d.user.id === userId)?.activities ?? [],
  });
}
