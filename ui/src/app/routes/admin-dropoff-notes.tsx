import { PageHeader } from "@/components/layouts/app-shell";
import { useAdminRecentActivity } from "@/features/activity/api/get-recent-activity";
import { DropoffNotesCard } from "@/features/activity/components/dropoff-notes-card";
import { useAppState } from "@/lib/state";
import { useUser } from "@/lib/auth";
import { isAdminRole } from "@/lib/user";

/**
 * AdminDropoffNotesRoute is /admin-dropoff-notes. Admins read the admin feed (full notes);
 * the liaison reads the state's feed, whose notes the server removes for that role.
 */
export function AdminDropoffNotesRoute() {
  const { data: user } = useUser();
  const admin = isAdminRole(user?.role);
  const recent = useAdminRecentActivity({ enabled: admin });
  const state = useAppState();
  const movements = admin ? recent.data : state.data?.recentMovements;
  return (
    <div className="space-y-6">
      <PageHeader title="Driver Dropoff Notes" description="View and manage driver battery dropoff notes and comments" />
      <DropoffNotesCard movements={movements} isLoading={admin ? recent.isLoading : state.isLoading} tall />
    </div>
  );
}
