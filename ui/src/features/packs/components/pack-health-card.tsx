import * as React from "react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { usePackHealth, type NegativeEvent, type PackHealth } from "@/features/packs/api/get-pack-health";
import { FactList } from "@/features/packs/components/fact-list";
import {
  WornBadge,
  capacityText,
  formatEnergy,
  formatPercent,
  fullCyclesText,
  sohSourceText,
  trendText,
} from "@/features/packs/components/pack-health-format";
import { formatDate, formatDayMonth } from "@/lib/format";
import { Lazy, loadable } from "@/lib/loadable";

/** healthChart is the charts' chunk (uPlot): fetched when a pack page shows its health, never on a first screen. */
const healthChart = loadable(() => import("@/features/packs/components/pack-health-chart").then((m) => m.HealthChart));

/** NO_READINGS is what a figure that needs a reading says while the pack has none. */
export const NO_READINGS = "No readings yet";

const EVENT_LABELS: Record<NegativeEvent["kind"], string> = { damage: "Damage", over_temperature: "Over temperature", fault: "Fault" };

/** healthFacts are the health figures in words; a figure SwapBay cannot know says so. */
export function healthFacts(h: PackHealth): [string, React.ReactNode][] {
  return [
    ["Charges", String(h.charges)],
    ["Full cycles", fullCyclesText(h.fullCycles)],
    ["Energy throughput", h.energyThroughputWh !== undefined ? formatEnergy(h.energyThroughputWh) : "Not known: no charger or BMS has reported energy yet"],
    ["State of health", h.soh ? `${formatPercent(h.soh.value)}, ${sohSourceText(h.soh)}` : NO_READINGS],
    ["Capacity", h.capacity && capacityText(h.capacity) ? `${capacityText(h.capacity)} (${formatDate(h.capacity.at)})` : NO_READINGS],
    ["30-day trend", h.drop30 !== undefined ? trendText(h.drop30) : "Not enough readings"],
    ["End-of-life threshold", `${formatPercent(h.threshold)}${h.model ? ` (model ${h.model})` : ""}`],
    ["Worn", h.worn ? `Yes: ${h.wornReason}` : "No"],
  ];
}

/** MIN_WEEKS is the fewest weeks the charges chart spans, so a single week reads as one bar of several. */
export const MIN_WEEKS = 8;

/**
 * filledWeeks is the charges per week with the weeks between (and before, up to MIN_WEEKS in
 * all) that had no charge as 0: the server leaves them out, a bar chart needs them.
 */
export function filledWeeks(weeks: PackHealth["series"]["chargesPerWeek"]): { week: string; charges: number }[] {
  if (weeks.length === 0) return [];
  const day = (w: string) => Date.UTC(Number(w.slice(0, 4)), Number(w.slice(5, 7)) - 1, Number(w.slice(8, 10)));
  const byWeek = new Map(weeks.map((w) => [w.week, w.charges]));
  const last = day(weeks[weeks.length - 1]!.week);
  const first = Math.min(day(weeks[0]!.week), last - (MIN_WEEKS - 1) * 7 * 86_400_000);
  const out: { week: string; charges: number }[] = [];
  for (let t = first; t <= last; t += 7 * 86_400_000) {
    const week = new Date(t).toISOString().slice(0, 10);
    out.push({ week, charges: byWeek.get(week) ?? 0 });
  }
  return out;
}

const toSeconds = (iso: string) => Math.round(new Date(iso).getTime() / 1000);
// a week is its Monday, YYYY-MM-DD: drawn at noon UTC so no time zone moves it to Sunday
const weekSeconds = (week: string) => toSeconds(`${week}T12:00:00Z`);

/** PackHealthCard is the pack page's health section (DESIGN.md §16): the figures, the two charts with the same figures in tables for screen readers, and the negative events. */
export function PackHealthCard({ serial }: { serial: string }) {
  const health = usePackHealth(serial);
  const title = React.useId();
  return (
    <Card role="region" aria-labelledby={title}>
      <CardHeader>
        <CardTitle>
          <h2 id={title}>Health</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-6">
        {health.isPending ? (
          <Skeleton className="h-40 w-full" />
        ) : health.isError ? (
          <p role="alert" className="text-destructive">
            Could not load the pack&apos;s health.
          </p>
        ) : (
          <HealthBody health={health.data} />
        )}
      </CardContent>
    </Card>
  );
}

/** FiguresTable is a chart's figures as a table for screen readers, hidden from view (the box keeps a wide table from widening the page). */
function FiguresTable({ caption, head, rows }: { caption: string; head: string[]; rows: string[][] }) {
  return (
    <div className="sr-only">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              {r.map((cell, j) => (
                <td key={j}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function HealthBody({ health: h }: { health: PackHealth }) {
  const soh = React.useMemo(() => ({ x: h.series.soh.map((p) => toSeconds(p.at)), y: h.series.soh.map((p) => p.value) }), [h.series.soh]);
  const weeks = React.useMemo(() => {
    const all = filledWeeks(h.series.chargesPerWeek);
    return { x: all.map((w) => weekSeconds(w.week)), y: all.map((w) => w.charges) };
  }, [h.series.chargesPerWeek]);
  const anyCharge = h.series.chargesPerWeek.some((w) => w.charges > 0);
  return (
    <>
      {h.worn && (
        <p className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          <WornBadge />
          {h.wornReason}
        </p>
      )}
      <FactList facts={healthFacts(h)} />
      <div className="grid gap-6 lg:grid-cols-2">
        <figure className="min-w-0 space-y-2">
          <figcaption className="text-sm font-medium">State of health over time</figcaption>
          {h.series.soh.length === 0 ? (
            <p className="text-sm text-muted-foreground">{NO_READINGS}</p>
          ) : (
            <>
              <Lazy of={healthChart} kind="soh" x={soh.x} y={soh.y} threshold={h.threshold} fallback={<Skeleton className="h-[180px] w-full" />} />
              <p className="text-xs text-muted-foreground" aria-hidden="true">
                Green: state of health. Dashed: the model&apos;s {formatPercent(h.threshold)} threshold.
              </p>
              <FiguresTable
                caption={`State of health readings, oldest first; the model's threshold is ${formatPercent(h.threshold)}`}
                head={["Date", "State of health", "Source"]}
                rows={h.series.soh.map((p) => [formatDate(p.at), formatPercent(p.value), p.source === "reading" ? "BMS reading" : "Estimate from charges"])}
              />
            </>
          )}
        </figure>
        <figure className="min-w-0 space-y-2">
          <figcaption className="text-sm font-medium">Charges per week</figcaption>
          {!anyCharge ? (
            <p className="text-sm text-muted-foreground">No charges in the last 12 months</p>
          ) : (
            <>
              <Lazy of={healthChart} kind="charges" x={weeks.x} y={weeks.y} fallback={<Skeleton className="h-[180px] w-full" />} />
              <FiguresTable
                caption="Completed charges per week, oldest first (weeks without a charge left out)"
                head={["Week of", "Charges"]}
                rows={h.series.chargesPerWeek.map((w) => [`${formatDayMonth(w.week)}, ${w.week.slice(0, 4)}`, String(w.charges)])}
              />
            </>
          )}
        </figure>
      </div>
      <section aria-labelledby={`${h.serial}-events`} className="space-y-2">
        <h3 id={`${h.serial}-events`} className="text-sm font-medium">
          Negative events
        </h3>
        {h.negativeEvents.length === 0 ? (
          <p className="text-sm text-muted-foreground">None recorded</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {h.negativeEvents.map((e, i) => (
              <li key={`${e.at}-${i}`}>
                <span className="font-medium">{EVENT_LABELS[e.kind] ?? e.kind}</span> · {formatDate(e.at)}: {e.text}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
