import { useQuery } from "@tanstack/react-query";
import { ACTIVITY_POLL_MS, type AdminWeeklyActivity, type WeekOffset } from "@/lib/weekly-activity";

/** driverWeekActivitiesUrl is the call (and query key) for one user's activities of a week. */
export function driverWeekActivitiesUrl(userId: string, weekOffset: WeekOffset = 0): string {
  const week = weekOffset === 0 ? "" : `weekOffset=${weekOffset}&`;
  return `/api/admin/weekly-activity?${week}user=${encodeURIComponent(userId)}`;
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
    meta: { silentError: true, staleOn: ["ACTIVITY_UPDATED", "driverOps", "activity"] },
    select: (week: AdminWeeklyActivity) => week.driverBreakdown.find((d) => d.user.id === userId)?.activities ?? [],
  });
}
