import { RepeatIcon, TruckIcon, WrenchIcon } from "lucide-react";
import * as React from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { type WeekOffset, useAdminWeeklyActivity } from "@/lib/weekly-activity";

const WEEK_LABEL: Record<WeekOffset, string> = { 0: "This week", [-1]: "Last week" };

/**
 * WeeklyPerformance is 'Weekly Operational Performance': Field Deployment (the inField
 * count), Weekly Rebalances and Weekly Recovers. Tapping either weekly figure toggles it
 * between this week and last week (GET /api/admin/weekly-activity?weekOffset=0|-1; last
 * week loads only once chosen).
 */
export function WeeklyPerformance({ inField }: { inField: number | undefined }) {
  const [rebalanceWeek, setRebalanceWeek] = React.useState<WeekOffset>(0);
  const [recoversWeek, setRecoversWeek] = React.useState<WeekOffset>(0);
  const thisWeek = useAdminWeeklyActivity(0);
  const lastWeek = useAdminWeeklyActivity(-1, { enabled: rebalanceWeek === -1 || recoversWeek === -1 });
  const week = (o: WeekOffset) => (o === 0 ? thisWeek : lastWeek);
  const rebalances = week(rebalanceWeek).data?.weeklyTotals.rebalanceTotal;
  const recovers = week(recoversWeek).data?.weeklyTotals.retrievesRepairsTotal;
  const flip = (o: WeekOffset): WeekOffset => (o === 0 ? -1 : 0);

  return (
    <Card role="region" aria-labelledby="weekly-ops-title">
      <CardHeader>
        <CardTitle id="weekly-ops-title">Weekly Operational Performance</CardTitle>
        <CardDescription>Tap a weekly figure to switch between this week and last week.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 sm:grid-cols-3">
        <Figure icon={TruckIcon} label="Field Deployment" value={inField} caption="Batteries in the field now" />
        <ToggleFigure
          icon={RepeatIcon}
          label="Weekly Rebalances"
          value={rebalances}
          week={rebalanceWeek}
          onToggle={() => setRebalanceWeek(flip)}
        />
        <ToggleFigure
          icon={WrenchIcon}
          label="Weekly Recovers"
          value={recovers}
          week={recoversWeek}
          onToggle={() => setRecoversWeek(flip)}
        />
      </CardContent>
    </Card>
  );
}

type IconType = React.ComponentType<{ className?: string; "aria-hidden"?: boolean }>;

function Figure({ icon: Icon, label, value, caption }: { icon: IconType; label: string; value: number | undefined; caption: string }) {
  return (
    <div className="rounded-lg border p-4">
      <p className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
        <Icon aria-hidden className="size-4" /> {label}
      </p>
      {value === undefined ? <Skeleton className="mt-1 h-8 w-14" /> : <div className="text-3xl font-bold tabular-nums">{value}</div>}
      <p className="text-xs text-muted-foreground">{caption}</p>
    </div>
  );
}

function ToggleFigure({
  icon: Icon,
  label,
  value,
  week,
  onToggle,
}: {
  icon: IconType;
  label: string;
  value: number | undefined;
  week: WeekOffset;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      onClick={onToggle}
      aria-pressed={week === -1}
      className="rounded-lg border p-4 text-left transition-colors hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
    >
      <span className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
        <Icon aria-hidden className="size-4" /> {label}
      </span>
      {value === undefined ? (
        <Skeleton className="mt-1 h-8 w-14" />
      ) : (
        <span className="block text-3xl font-bold tabular-nums">{value}</span>
      )}
      <span className="text-xs text-muted-foreground">{WEEK_LABEL[week]} (tap to switch)</span>
    </button>
  );
}
