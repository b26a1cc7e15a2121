import { Spinner } from "@/components/ui/spinner";
import { PageHeader } from "@/components/layouts/app-shell";
import { paths } from "@/config/paths";
import { AdminActivityCards, DriverActivityCards } from "@/features/activity/components/activity-cards";
import { useAdminRecentActivity, useDriverRecentMovements } from "@/features/activity/api/get-recent-activity";
import { DropoffNotesCard } from "@/features/activity/components/dropoff-notes-card";
import { RecentActivityCard } from "@/features/activity/components/recent-activity-card";
import { WeeklyDriverActivity } from "@/features/activity/components/weekly-driver-activity";
import { type AppState, useAppState } from "@/features/dashboard/api/get-state";
import { CameraCaptureCard } from "@/features/photos/components/camera-capture-card";
import { PhotoUploadCard } from "@/features/photos/components/photo-upload-card";
import { DriverStatsCard } from "@/features/dashboard/components/driver-stats-card";
import { StatsBlock } from "@/features/dashboard/components/stats-block";
import { UnaccountedWarning } from "@/features/dashboard/components/unaccounted-warning";
import { LiaisonScreen } from "@/app/routes/liaison";
import { ChargingEtaList } from "@/features/charging/components/charging-eta-list";
import { ChargingSessionsTable } from "@/features/charging/components/charging-sessions-table";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { DriverOperationsPanel } from "@/features/driver-ops/components/driver-operations-panel";
import { useUser } from "@/lib/auth";
import { type User, displayName, isAdminRole, isLiaisonRole } from "@/lib/user";

/** HomeRoute is /: the role's dashboard (liaison, admin or driver), loaded from /api/state. */
export function HomeRoute() {
  const { data: user } = useUser();
  if (!user) return null;
  if (isLiaisonRole(user.role)) return <LiaisonScreen user={user} />;
  return <StateHome user={user} />;
}

function StateHome({ user }: { user: User }) {
  const state = useAppState();
  if (state.isPending) {
    return (
      <div className="flex items-center justify-center gap-2 py-16 text-sm text-muted-foreground">
        <Spinner label="Loading..." />
        Loading...
      </div>
    );
  }
  if (isAdminRole(user.role)) return <AdminHome user={user} state={state.data} />;
  return <DriverHome user={user} state={state.data} />;
}

/**
 * AdminHome: the five stats with inline edit, the unaccounted warning, the fleet's moves
 * and recovers, the charging sessions, Weekly Driver Activity, the Recent Activity feed (Movement Options) and the
 * dropoff notes.
 */
function AdminHome({ user, state }: { user: User; state?: AppState }) {
  const recent = useAdminRecentActivity();
  return (
    <div className="space-y-6">
      <PageHeader title="Home" description={`Welcome, ${displayName(user)}`} />
      <UnaccountedWarning stats={state?.stats} emergencyPath={paths.adminEmergency.path} />
      <StatsBlock stats={state?.stats} editable />
      <AdminActivityCards />
      <ChargingSessionsTable role={user.role} />
      <div className="grid gap-6 lg:grid-cols-2">
        <WeeklyDriverActivity canDelete />
        <RecentActivityCard movements={recent.data} isLoading={recent.isLoading} manage />
      </div>
      <DropoffNotesCard movements={recent.data} isLoading={recent.isLoading} />
    </div>
  );
}

/**
 * DriverHome (phone first): the personal batteries card, Moves and Recovers with quick log,
 * the Charging ETA list, the Driver Operations forms, the fleet figures and the driver's own recent activity.
 */
function DriverHome({ user, state }: { user: User; state?: AppState }) {
  const recent = useDriverRecentMovements();
  const figures = {
    rebalance: state && {
      daily: state.driverDailyActivity.rebalanceToday,
      weekly: state.driverWeeklyActivity.totals.rebalanceQty,
      lastWeek: state.driverLastWeekActivity.totals.rebalanceQty,
    },
    retrieves_repairs_dropoff: state && {
      daily: state.driverDailyActivity.retrievesRepairsToday,
      weekly: state.driverWeeklyActivity.totals.retrievesRepairsQty,
      lastWeek: state.driverLastWeekActivity.totals.retrievesRepairsQty,
    },
  };
  return (
    <div className="space-y-5">
      <PageHeader title="Driver Home" description={`Welcome, ${displayName(user)}`} />
      <DriverStatsCard state={state} userId={user.id} />
      <DriverActivityCards figures={figures} />
      <Card>
        <CardHeader>
          <CardTitle>Charging ETA</CardTitle>
        </CardHeader>
        <CardContent>
          <ChargingEtaList sessions={state?.chargingSessions ?? []} emptyText="No batteries charging" />
        </CardContent>
      </Card>
      <DriverOperationsPanel prompts={state?.settings} />
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
        <CameraCaptureCard />
        <PhotoUploadCard />
      </div>
      <section aria-labelledby="fleet-title" className="space-y-2">
        <h2 id="fleet-title" className="text-lg font-semibold">
          Fleet
        </h2>
        <StatsBlock stats={state?.stats} />
      </section>
      <RecentActivityCard
        title="Your Recent Activity"
        movements={recent.data}
        isLoading={recent.isLoading}
      />
    </div>
  );
}
