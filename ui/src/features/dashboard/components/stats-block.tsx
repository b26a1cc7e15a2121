import { BatteryChargingIcon, BatteryFullIcon, BatteryLowIcon, BatteryIcon, CheckIcon, PencilIcon, ShieldAlertIcon, TruckIcon, XIcon } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { InlineNumberForm } from "@/components/inline-number-form";
import { Skeleton } from "@/components/ui/skeleton";
import type { BatteryStats, StatKey } from "@/lib/state";
import { isStatChanged, useUpdateStats } from "@/features/dashboard/api/update-stats";
import { toast } from "@/hooks/use-toast";
import { newIdempotencyKey } from "@/lib/idempotency";
import { cn } from "@/lib/utils";
import { toastError } from "@/lib/toast-error";

/** STAT_CARDS are the five figures in display order with their labels (spec part 1 §2). */
export const STAT_CARDS: readonly { key: StatKey; label: string; icon: React.ElementType; tone: string }[] = [
  { key: "total", label: "Total Batteries", icon: BatteryIcon, tone: "text-slate-700" },
  { key: "ready", label: "Ready", icon: BatteryFullIcon, tone: "text-emerald-700" },
  { key: "waiting", label: "Waiting", icon: BatteryLowIcon, tone: "text-amber-700" },
  { key: "charging", label: "Charging", icon: BatteryChargingIcon, tone: "text-sky-700" },
  { key: "inField", label: "In Field", icon: TruckIcon, tone: "text-violet-700" },
];

/**
 * StatsBlock shows the five battery figures, and "Quarantined N" beside them when any battery
 * is on the quarantine shelf (out-of-use packs: counted apart from ready and waiting, never
 * edited here). With editable (admin roles) each card has an
 * inline edit: a whole number 0 or more ('Invalid Value' otherwise), 0 just closes, any
 * other value posts that figure alone with the value shown when the edit began; if the
 * figure changed meanwhile the server refuses, the toast says so and the edit closes on the
 * refreshed figures.
 */
export function StatsBlock({ stats, editable = false, isLoading = false }: { stats?: BatteryStats; editable?: boolean; isLoading?: boolean }) {
  return (
    <section aria-label="Battery stats" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      {STAT_CARDS.map((c) => (
        <StatCard key={c.key} card={c} stats={stats} editable={editable} isLoading={isLoading} />
      ))}
      {(stats?.quarantined ?? 0) > 0 && <QuarantinedCard n={stats!.quarantined!} />}
    </section>
  );
}

function StatCard({
  card,
  stats,
  editable,
  isLoading,
}: {
  card: (typeof STAT_CARDS)[number];
  stats?: BatteryStats;
  editable: boolean;
  isLoading: boolean;
}) {
  const [editing, setEditing] = React.useState(false);
  // the figure shown when the edit began: the server refuses the edit if it moved since
  const [from, setFrom] = React.useState(0);
  const update = useUpdateStats();
  const id = React.useId();
  const value = stats?.[card.key];
  const Icon = card.icon;

  const save = (next: number) => {
    if (!stats) return;
    update.mutate(
      { body: { stat: card.key, value: next, from }, idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: () => {
          toast({ title: `${card.label} updated successfully` });
          setEditing(false);
        },
        onError: (err) => {
          toastError(err, "Failed to update statistic");
          if (isStatChanged(err)) setEditing(false);
        },
      },
    );
  };

  return (
    <Card className="gap-2 py-4">
      <CardContent className="px-4">
        <div className="flex items-center justify-between gap-2">
          <span id={`${id}-label`} className="flex items-center gap-1.5 text-sm font-medium text-muted-foreground">
            <Icon aria-hidden className={cn("size-4", card.tone)} />
            {card.label}
          </span>
          {editable && !editing && (
            <Button
              variant="ghost"
              size="icon"
              className="size-7"
              aria-label={`Edit ${card.label}`}
              disabled={!stats}
              onClick={() => {
                setFrom(value ?? 0);
                setEditing(true);
              }}
            >
              <PencilIcon />
            </Button>
          )}
        </div>
        {isLoading && value === undefined ? (
          <Skeleton className="mt-2 h-8 w-16" />
        ) : editing ? (
          <InlineNumberForm
            label={`New ${card.label}`}
            min={0}
            initial={String(from)}
            disabled={update.isPending}
            onSave={save}
            onClose={() => setEditing(false)}
            className="mt-2 flex items-center gap-1"
            inputClassName="h-8 w-20"
          >
            <Button type="submit" size="icon" className="size-8" aria-label={`Save ${card.label}`} disabled={update.isPending}>
              <CheckIcon />
            </Button>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={`Cancel editing ${card.label}`}
              disabled={update.isPending}
              onClick={() => setEditing(false)}
            >
              <XIcon />
            </Button>
          </InlineNumberForm>
        ) : (
          <p aria-labelledby={`${id}-label`} className={cn("mt-1 text-3xl font-bold tabular-nums", card.tone)}>
            {value ?? "–"}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/** QuarantinedCard is "Quarantined N": the batteries of out-of-use packs, in the bay but not ready. */
export function QuarantinedCard({ n }: { n: number }) {
  const id = React.useId();
  return (
    <Card className="gap-2 py-4">
      <CardContent className="px-4">
        <span id={`${id}-label`} className="flex items-center gap-1.5 text-sm font-medium text-muted-foreground">
          <ShieldAlertIcon aria-hidden className="size-4 text-red-700" />
          Quarantined
        </span>
        <p aria-labelledby={`${id}-label`} className="mt-1 text-3xl font-bold tabular-nums text-red-700">
          {n}
        </p>
      </CardContent>
    </Card>
  );
}
