import { PlusIcon, RecycleIcon, RouteIcon } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Hint } from "@/components/ui/hint";
import { InlineNumberForm } from "@/components/inline-number-form";
import { MAX_COUNT } from "@/lib/count";
import { type WeekOffset, useAdminWeeklyActivity } from "@/lib/weekly-activity";
import { ACTIVITY_LABELS, type ActivityKind, activityBody } from "@/features/activity/api/log-activity";
import { useOutboxSubmit } from "@/features/outbox/hooks/use-submit";
import { toast } from "@/hooks/use-toast";
import { cn } from "@/lib/utils";
import { toastError } from "@/lib/toast-error";

const ICONS: Record<ActivityKind, React.ElementType> = { rebalance: RouteIcon, retrieves_repairs_dropoff: RecycleIcon };
const KINDS: readonly ActivityKind[] = ["rebalance", "retrieves_repairs_dropoff"];

/** PeriodFigures are a card's numbers per period (driver cards cycle through them). */
export type PeriodFigures = { daily: number; weekly: number; lastWeek: number };

type Period = keyof PeriodFigures;
const PERIODS: readonly Period[] = ["daily", "weekly", "lastWeek"];
const PERIOD_CAPTIONS: Record<Period, string> = { daily: "Today", weekly: "This week", lastWeek: "Last week" };

/**
 * DriverActivityCards are the Moves and Recovers cards of a driver: a tap on the number
 * cycles today → this week → last week; Log opens a quick entry.
 */
export function DriverActivityCards({ figures }: { figures: Record<ActivityKind, PeriodFigures | undefined> }) {
  return (
    <div className="grid grid-cols-2 gap-3">
      {KINDS.map((kind) => (
        <CyclingCard key={kind} kind={kind} figures={figures[kind]} />
      ))}
    </div>
  );
}

function CyclingCard({ kind, figures }: { kind: ActivityKind; figures?: PeriodFigures }) {
  const [period, setPeriod] = React.useState<Period>("daily");
  const value = figures?.[period];
  const hint = React.useId();
  return (
    <ActivityCardFrame kind={kind}>
      <button
        type="button"
        className="w-full rounded-md text-left outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        aria-describedby={hint}
        onClick={() => setPeriod((p) => PERIODS[(PERIODS.indexOf(p) + 1) % PERIODS.length]!)}
      >
        <span className="block text-3xl font-bold tabular-nums">{value ?? "–"}</span>
        <span className="block text-xs text-muted-foreground">{PERIOD_CAPTIONS[period]}</span>
      </button>
      <Hint id={hint}>Tap to change the period</Hint>
    </ActivityCardFrame>
  );
}

/**
 * AdminActivityCards are the admin's rebalance (Moves) and Recovers totals of all drivers,
 * toggling between this week and last week on tap (last week is fetched when first chosen),
 * each with a quick log entry.
 */
export function AdminActivityCards() {
  const [offsets, setOffsets] = React.useState<Record<ActivityKind, WeekOffset>>({ rebalance: 0, retrieves_repairs_dropoff: 0 });
  const anyLastWeek = offsets.rebalance === -1 || offsets.retrieves_repairs_dropoff === -1;
  const thisWeek = useAdminWeeklyActivity(0);
  const lastWeek = useAdminWeeklyActivity(-1, { enabled: anyLastWeek });
  const ids = React.useId();
  const total = (kind: ActivityKind) => {
    const data = offsets[kind] === 0 ? thisWeek.data : lastWeek.data;
    if (!data) return undefined;
    return kind === "rebalance" ? data.weeklyTotals.rebalanceTotal : data.weeklyTotals.retrievesRepairsTotal;
  };
  return (
    <div className="grid grid-cols-2 gap-3">
      {KINDS.map((kind) => {
        const caption = offsets[kind] === 0 ? "This week" : "Last week";
        const value = total(kind);
        const hint = `${ids}-${kind}-hint`;
        return (
          <ActivityCardFrame key={kind} kind={kind}>
            <button
              type="button"
              className="w-full rounded-md text-left outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
              aria-describedby={hint}
              onClick={() => setOffsets((o) => ({ ...o, [kind]: o[kind] === 0 ? -1 : 0 }))}
            >
              <span className="block text-3xl font-bold tabular-nums">{value ?? "–"}</span>
              <span className="block text-xs text-muted-foreground">{caption}, all drivers</span>
            </button>
            <Hint id={hint}>Tap to switch the week</Hint>
          </ActivityCardFrame>
        );
      })}
    </div>
  );
}

function ActivityCardFrame({ kind, children }: { kind: ActivityKind; children: React.ReactNode }) {
  const Icon = ICONS[kind];
  const label = ACTIVITY_LABELS[kind];
  const title = React.useId();
  // a group named by its title: the figure's button is named by what it shows (SC 2.5.3), the
  // card says what the figure counts
  return (
    <Card role="group" aria-labelledby={title} className="gap-2 py-4">
      <CardContent className="space-y-2 px-4">
        <h2 id={title} className="flex items-center gap-1.5 text-sm font-medium text-muted-foreground">
          <Icon aria-hidden className={cn("size-4", kind === "rebalance" ? "text-sky-700" : "text-emerald-700")} />
          {label}
        </h2>
        {children}
        <QuickLog kind={kind} />
      </CardContent>
    </Card>
  );
}

/**
 * QuickLog is a card's 'Log' entry: a whole number above 0 posts
 * {quantity, notes: '{label} activity logged'}; 0 closes without saving; anything else is
 * refused with 'Invalid Value'.
 */
export function QuickLog({ kind }: { kind: ActivityKind }) {
  const [open, setOpen] = React.useState(false);
  const log = useOutboxSubmit();
  const label = ACTIVITY_LABELS[kind];

  if (!open) {
    return (
      <Button variant="outline" size="sm" className="w-full" onClick={() => setOpen(true)}>
        <PlusIcon aria-hidden />
        Log {label}
      </Button>
    );
  }
  const save = (quantity: number) => {
    // through the outbox (DESIGN.md §12): the key and the tap's time are minted now
    void log.run(
      kind,
      activityBody(kind, quantity),
      {
        onSent: () => {
          toast({ title: `${label} activity logged successfully` });
          setOpen(false);
        },
        onQueued: () => setOpen(false),
        onRefused: (err) => toastError(err, "Failed to log activity"),
      },
    );
  };
  return (
    <InlineNumberForm
      label={`${label} to log`}
      min={1}
      initial=""
      disabled={log.isPending}
      onSave={save}
      onClose={() => setOpen(false)}
      max={MAX_COUNT}
      className="flex flex-wrap items-center gap-1"
      inputClassName="h-8 w-full min-w-16 flex-1 basis-full sm:basis-0"
    >
      <Button type="submit" size="sm" disabled={log.isPending}>
        {log.isPending ? "Saving..." : "Save"}
      </Button>
      <Button type="button" size="sm" variant="ghost" disabled={log.isPending} onClick={() => setOpen(false)}>
        Cancel
      </Button>
    </InlineNumberForm>
  );
}
