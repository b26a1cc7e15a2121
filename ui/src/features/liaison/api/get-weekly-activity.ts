import { queryOptions, useQuery } from "@tanstack/react-query";

/** WeekOffset picks the week: 0 this week, -1 last week (spec part 1 §9). */
export type WeekOffset = 0 | -1;

/** WeeklyDriver is one person's week in the breakdown. */
export type WeeklyDriver = {
  user: { id: string; firstName: string; lastName: string; role?: string };
  deadBatteriesTotal: number;
  rebalanceTotal: number;
  retrievesRepairsTotal: number;
  totalActivities: number;
};

/** WeeklyActivity is GET /api/admin/weekly-activity (the liaison's copy has no notes). */
export type WeeklyActivity = {
  weekStart: string;
  weekEnd: string;
  weeklyTotals: { rebalanceTotal: number; retrievesRepairsTotal: number };
  days: { date: string; rebalanceQty: number; retrievesRepairsQty: number }[];
  driverBreakdown: WeeklyDriver[];
};

/** weeklyActivityQueryOptions: one week's activity, polled every 60 s (key = the URL). */
export function weeklyActivityQueryOptions(weekOffset: WeekOffset) {
  return queryOptions<WeeklyActivity>({
    queryKey: [`/api/admin/weekly-activity?weekOffset=${weekOffset}`],
    refetchInterval: 60_000,
  });
}

/** useWeeklyActivity loads one week's activity; last week only loads once chosen (enabled). */
export function useWeeklyActivity(weekOffset: WeekOffset, enabled = true) {
  return useQuery({ ...weeklyActivityQueryOptions(weekOffset), enabled });
}
