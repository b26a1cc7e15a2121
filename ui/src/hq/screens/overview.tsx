import { useQuery } from "@tanstack/react-query";
import { QueryStatus } from "@/components/query-status";
import { formatDateTime, formatDayMonth } from "@/lib/format";
import { type DaySwaps, type Overview, type OverviewCity, type Stock, type WeekPay, overviewQueryOptions } from "@/hq/api";
import { STOCK_STATES, clause, formatCount, formatMoney, possessive, sumSwaps } from "@/hq/format";
import { HqCard, HqPageHeader } from "@/hq/shell";

/** OverviewScreen: the totals, then one card per city (GET /api/hq/overview, every 60 s). */
export function OverviewScreen() {
  const overview = useQuery({ ...overviewQueryOptions, meta: { silentError: true } });
  const o = overview.data;
  return (
    <>
      <HqPageHeader title="Overview" description={o ? `Figures as of ${formatDateTime(o.asOf)}` : "Every city's figures from its replica"} />
      <QueryStatus query={overview} skeletonClassName="h-64 w-full" error="Failed to load the overview" alert />
      {o && (
        <div className="grid gap-6">
          {o.cities.length === 0 ? (
            <p className="text-sm text-muted-foreground">No city yet: add one on the Cities page.</p>
          ) : (
            <TotalsCard totals={o.totals} cities={o.cities.length} />
          )}
          <div className="grid gap-6 lg:grid-cols-2">
            {o.cities.map((c) => (
              <CityCard key={c.id} city={c} />
            ))}
          </div>
        </div>
      )}
    </>
  );
}

function TotalsCard({ totals, cities }: { totals: Overview["totals"]; cities: number }) {
  return (
    <HqCard
      region
      title="All cities"
      description={
        <>
          {cities} {cities === 1 ? "city" : "cities"}; swaps by UTC day
        </>
      }
      contentClassName="grid gap-6 md:grid-cols-2"
    >
        <StockList stock={totals.stock} />
        <div className="grid gap-4">
          <SwapBars days={totals.swapsPerDay} label="All cities' swaps per day, last 30 days" />
          {totals.payByCurrency.map((p) => (
            <PayWeeks key={p.currency} weeks={p.weeks} currency={p.currency} label={`Pay per week in ${p.currency}`} />
          ))}
        </div>
    </HqCard>
  );
}

/** CityCard is one city: its stock, swaps per day, pay per week, recalls and missing packs; or why it could not be read. */
export function CityCard({ city }: { city: OverviewCity }) {
  return (
    <HqCard
      region
      title={city.name}
      description={
        <>
          {city.timeZone} · {city.currency}
          {city.copy.behind && <span className="font-medium text-amber-700 dark:text-amber-400"> · figures behind</span>}
        </>
      }
      contentClassName="grid gap-4"
    >
        {!city.ok ? (
          <p role="alert" className="text-sm text-destructive">
            {possessive(city.name)} figures could not be read: {clause(city.error, "its copy is not available")}.
          </p>
        ) : (
          <>
            {city.stock && <StockList stock={city.stock} />}
            <SwapBars days={city.swapsPerDay ?? []} label={`${possessive(city.name)} swaps per day, last 30 days`} />
            <PayWeeks weeks={city.payPerWeek ?? []} currency={city.currency} label="Pay per week" />
            <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted-foreground">Recalls</dt>
              <dd className="text-right tabular-nums">
                {formatCount(city.recalls?.count)} ({formatCount(city.recalls?.packsQuarantined)} packs quarantined)
              </dd>
              <dt className="text-muted-foreground">Missing packs</dt>
              <dd className="text-right tabular-nums">{formatCount(city.missingPacks)}</dd>
            </dl>
          </>
        )}
    </HqCard>
  );
}

/** StockList is the batteries by state. */
function StockList({ stock }: { stock: Stock }) {
  return (
    <div>
      <h3 className="mb-2 text-sm font-medium">Stock</h3>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {STOCK_STATES.map((s) => (
          <div key={s.key} className="rounded-md border p-2">
            <dt className="text-xs text-muted-foreground">{s.label}</dt>
            <dd className="text-lg font-semibold tabular-nums">{formatCount(stock[s.key])}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** SwapBars is a small bar chart of swaps per day (CSS bars), its figures in a table for screen readers. */
export function SwapBars({ days, label }: { days: DaySwaps[]; label: string }) {
  const max = Math.max(1, ...days.map((d) => d.swaps || 0));
  const total = sumSwaps(days);
  return (
    <figure className="grid gap-1">
      <figcaption className="flex justify-between text-sm">
        <span className="font-medium">Swaps per day</span>
        <span className="text-muted-foreground tabular-nums">{formatCount(total)} in 30 days</span>
      </figcaption>
      <div aria-hidden className="flex h-16 items-end gap-px rounded-md border p-1">
        {days.map((d) => (
          <div
            key={d.day}
            title={`${formatDayMonth(d.day)}: ${d.swaps}`}
            className="min-w-0 flex-1 rounded-t-sm bg-primary/80"
            style={{ height: `${Math.max(d.swaps > 0 ? 4 : 1, (100 * (d.swaps || 0)) / max)}%` }}
          />
        ))}
      </div>
      {days.length > 0 && (
        <div aria-hidden className="flex justify-between text-xs text-muted-foreground">
          <span>{formatDayMonth(days[0]!.day)}</span>
          <span>{formatDayMonth(days[days.length - 1]!.day)}</span>
        </div>
      )}
      <table className="sr-only">
        <caption>{label}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Swaps</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <td>{d.day}</td>
              <td>{d.swaps}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** PayWeeks is pay per week (the city's Monday weeks) in one currency, newest last. */
function PayWeeks({ weeks, currency, label }: { weeks: WeekPay[]; currency: string; label: string }) {
  if (weeks.length === 0) return null;
  return (
    <div>
      <h3 className="mb-1 text-sm font-medium">{label}</h3>
      <table className="w-full text-sm">
        <caption className="sr-only">
          {label} ({currency})
        </caption>
        <thead className="sr-only">
          <tr>
            <th scope="col">Week of</th>
            <th scope="col">Pay</th>
          </tr>
        </thead>
        <tbody>
          {weeks.slice(-4).map((w) => (
            <tr key={w.weekStart} className="border-b last:border-0">
              <td className="py-1 text-muted-foreground">Week of {formatDayMonth(w.weekStart)}</td>
              <td className="py-1 text-right tabular-nums">{formatMoney(w.cents, currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
