import { PageHeader } from "@/components/layouts/app-shell";
import { DriverActivityCards } from "@/features/activity/components/activity-cards";
import { useDriverRecentMovements } from "@/features/activity/api/get-recent-activity";
import { RecentActivityCard } from "@/features/activity/components/recent-activity-card";
import type { AppState } from "@/lib/state";
import { DriverStatsCard } from "@/features/dashboard/components/driver-stats-card";
import { StatsBlock } from "@/features/dashboard/components/stats-block";
import { ChargingEtaList } from "@/features/charging/components/charging-eta-list";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { CameraCaptureCard } from "@/features/photos/components/camera-capture-card";
import { type User, displayName } from "@/lib/user";
import { PayEstimateCard } from "@/features/earnings/components/pay-estimate-card";
import { HeldPacksLink } from "@/features/packs/components/held-packs-link";
import { ReportDamageButton } from "@/features/packs/components/report-damage-button";
import { packTracking } from "@/lib/packs";
import { Skeleton } from "@/components/ui/skeleton";
import { Lazy, loadable } from "@/lib/loadable";
import { holdingsDelta, pendingCounts, pendingFeed, useOutbox } from "@/features/outbox/hooks/use-outbox";

// The driver dashboard is its own chunk (DESIGN.md §10): it carries none of the admin screens.
// Below the figures (off the first screen on a phone), the forms (react-hook-form, zod, the pack
// scanner's field) and the photo upload load once the first screen is shown
// (lib/first-screen-shown.ts), in place of placeholders of their height.
const driverOperationsPanel = loadable(() =>
  import("@/features/driver-ops/components/driver-operations-panel").then((m) => m.DriverOperationsPanel),
);
const photoUploadCard = loadable(() => import("@/features/photos/components/photo-upload-card").then((m) => m.PhotoUploadCard));

/**
 * DriverHome (phone first): the personal batteries card with the packs they hold by serial, Moves and Recovers with quick log,
 * the Charging ETA list, the Driver Operations forms, the fleet figures and the driver's own recent activity.
 */
export function DriverHome({ user, state }: { user: User; state?: AppState }) {
  const recent = useDriverRecentMovements();
  // the queued actions show at once, marked "waiting to send" (DESIGN.md §12)
  const outbox = useOutbox();
  const queued = outbox.items;
  const me = { id: user.id, firstName: user.firstName, lastName: user.lastName };
  const movements = queued.length > 0 ? [...pendingFeed(queued).map((m) => ({ ...m, user: me })), ...(recent.data ?? [])] : recent.data;
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
      <DriverStatsCard state={state} userId={user.id} pending={holdingsDelta(queued)} />
      <HeldPacksLink />
      <PayEstimateCard pending={pendingCounts(queued)} />
      <DriverActivityCards figures={figures} />
      <Card>
        <CardHeader>
          <CardTitle>Charging ETA</CardTitle>
        </CardHeader>
        <CardContent>
          <ChargingEtaList sessions={state?.chargingSessions ?? []} emptyText="No batteries charging" />
        </CardContent>
      </Card>
      {/* packs are named only under pack tracking: with it off, the screens stay as they were */}
      <Lazy
        of={driverOperationsPanel}
        afterFirstScreen
        fallback={<Skeleton className="h-[68rem] w-full md:h-[36rem]" />}
        prompts={state?.settings}
        dropoffExtra={packTracking(state?.settings) === "off" ? undefined : <ReportDamageButton className="w-full" />}
      />
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
        <CameraCaptureCard />
        <Lazy of={photoUploadCard} afterFirstScreen fallback={<Skeleton className="h-80 w-full" />} />
      </div>
      <section aria-labelledby="fleet-title" className="space-y-2">
        <h2 id="fleet-title" className="text-lg font-semibold">
          Fleet
        </h2>
        <StatsBlock stats={state?.stats} />
      </section>
      <RecentActivityCard
        title="Your Recent Activity"
        movements={movements}
        isLoading={recent.isLoading}
      />
    </div>
  );
}
