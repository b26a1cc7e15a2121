import { PageHeader } from "@/components/layouts/app-shell";
import { useAdminRecentActivity } from "@/features/activity/api/get-recent-activity";
import { ActivePickupsCard } from "@/features/activity/components/active-pickups-card";
import { RecentActivityCard } from "@/features/activity/components/recent-activity-card";
import { WeeklyDriverActivity } from "@/features/activity/components/weekly-driver-activity";

/**
 * AdminConsoleRoute is the Driver Console (/admin-console): the admin's view of drivers in
 * the field — who holds picked-up batteries now, each driver's week, and the live feed with
 * Movement Options.
 */
export function AdminConsoleRoute() {
  const recent = useAdminRecentActivity();
  return (
    <div className="space-y-6">
      <PageHeader title="Driver Console" description="Drivers in the field, their week and the latest movements" />
      <ActivePickupsCard />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <WeeklyDriverActivity canDelete />
        <RecentActivityCard movements={recent.data} isLoading={recent.isLoading} manage />
      </div>
    </div>
  );
}
