import { PageHeader } from "@/components/layouts/app-shell";
import { paths } from "@/config/paths";
import { AdminActivityCards } from "@/features/activity/components/activity-cards";
import { WeeklyDriverActivity } from "@/features/activity/components/weekly-driver-activity";
import { useAdminRecentActivity } from "@/features/activity/api/get-recent-activity";
import type { AppState } from "@/lib/state";
import { AttentionStrip } from "@/features/dashboard/components/attention-strip";
import { StatsBlock } from "@/features/dashboard/components/stats-block";
import { UnaccountedWarning } from "@/features/dashboard/components/unaccounted-warning";
import { ChargingSessionsTable } from "@/features/charging/components/charging-sessions-table";
import { type User, displayName } from "@/lib/user";
import { CollapsibleCard } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Lazy, loadable } from "@/lib/loadable";

// The earnings panels load after the dashboard's first screen, as their own chunk.
// Below the week view (off the first screen on a phone), each its own request once the first
// screen is shown (lib/first-screen-shown.ts): the feed with its Movement Options, the dropoff notes.
const recentActivityCard = loadable(() => import("@/features/activity/components/recent-activity-card").then((m) => m.RecentActivityCard));
const dropoffNotesCard = loadable(() => import("@/features/activity/components/dropoff-notes-card").then((m) => m.DropoffNotesCard));
const earningsPanels = loadable(() => import("@/features/earnings/components/earnings-panels").then((m) => m.default));

// The admin dashboard is its own chunk (DESIGN.md §10): drivers never download it.

/**
 * AdminHome: the unaccounted warning, the five stats with inline edit, what needs action first
 * (the attention strip of issue 28: right under the five counts, on a phone's first screen),
 * the fleet's moves and recovers, the charging sessions, Weekly Driver Activity, the Recent
 * Activity feed (Movement Options) and the dropoff notes, then the earnings panels (pool,
 * weekly earnings, pay rates). The long
 * sections collapse under their own titles, each remembered on the device (CollapsibleCard),
 * at every width: one behaviour to learn, and a desktop admin who never collapses sees no change.
 */
export function AdminHome({ user, state }: { user: User; state?: AppState }) {
  const recent = useAdminRecentActivity();
  return (
    <div className="space-y-6">
      <PageHeader title="Home" description={`Welcome, ${displayName(user)}`} />
      <UnaccountedWarning stats={state?.stats} emergencyPath={paths.adminEmergency.path} />
      <StatsBlock stats={state?.stats} editable />
      <AttentionStrip />
      <AdminActivityCards />
      <CollapsibleCard id="home.charging-sessions">
        <ChargingSessionsTable role={user.role} />
      </CollapsibleCard>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <CollapsibleCard id="home.weekly-driver-activity">
          <WeeklyDriverActivity canDelete />
        </CollapsibleCard>
        <CollapsibleCard id="home.recent-activity">
          <Lazy
            of={recentActivityCard}
            afterFirstScreen
            fallback={<Skeleton className="h-96 w-full" />}
            movements={recent.data}
            isLoading={recent.isLoading}
            manage
          />
        </CollapsibleCard>
      </div>
      <CollapsibleCard id="home.dropoff-notes">
        <Lazy of={dropoffNotesCard} afterFirstScreen fallback={<Skeleton className="h-40 w-full" />} movements={recent.data} isLoading={recent.isLoading} />
      </CollapsibleCard>
      <Lazy of={earningsPanels} afterFirstScreen fallback={<Skeleton className="h-64 w-full" />} />
    </div>
  );
}
