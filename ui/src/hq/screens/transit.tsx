import { useQuery } from "@tanstack/react-query";
import { ArrowRightIcon, TriangleAlertIcon } from "lucide-react";
import { QueryStatus } from "@/components/query-status";
import { Card, CardContent } from "@/components/ui/card";
import { formatDateTime } from "@/lib/format";
import { type CountedTwice, transitQueryOptions } from "@/hq/api";
import { clause, countedTwiceGroups, countedTwiceWords, possessive } from "@/hq/format";
import { HqPageHeader } from "@/hq/shell";

/** TransitScreen: packs sent from one city to another, with what the receiving city has scanned in so far (GET /api/hq/transit). */
export function TransitScreen() {
  const transit = useQuery({ ...transitQueryOptions, meta: { silentError: true } });
  const list = transit.data?.transfers ?? [];
  return (
    <>
      <HqPageHeader title="In transit" description="Packs sent from one city to another, and what the receiving city has scanned in" />
      {transit.data?.cities
        ?.filter((c) => !c.ok)
        .map((c) => (
          <p key={c.id} role="alert" className="mb-3 text-sm text-destructive">
            {possessive(c.name)} transfers could not be read: {clause(c.error, "its copy is not available")}.
          </p>
        ))}
      <CountedInTwoCities rows={transit.data?.inTwoCities ?? []} />
      <QueryStatus
        query={transit}
        skeletonClassName="h-32 w-full"
        error="Failed to load the packs in transit"
        alert
        empty={transit.data && list.length === 0 && "No pack is in transit between cities."}
      />
      <ul className="grid gap-3 md:grid-cols-2">
        {list.map((t) => (
          <li key={`${t.fromCityId}/${t.ref}`}>
            <Card className="py-4">
              <CardContent className="grid gap-2 px-4 text-sm">
                <h2 className="flex flex-wrap items-center gap-2 text-base font-semibold">
                  {t.fromCity}
                  <ArrowRightIcon aria-hidden className="size-4" />
                  <span className="sr-only">to</span>
                  {t.toCity}
                </h2>
                <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                  <dt className="text-muted-foreground">Sent</dt>
                  <dd>{formatDateTime(t.sentAt)}</dd>
                  <dt className="text-muted-foreground">Reference</dt>
                  <dd className="font-mono text-xs break-all">{t.ref}</dd>
                  <dt className="text-muted-foreground">Packs</dt>
                  <dd>
                    {t.serials.length} sent, {t.received.length} received, {t.pending.length} on the way
                  </dd>
                  {t.pending.length > 0 && (
                    <>
                      <dt className="text-muted-foreground">On the way</dt>
                      <dd className="font-mono text-xs break-words">{t.pending.join(", ")}</dd>
                    </>
                  )}
                </dl>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * CountedInTwoCities is the packs a city received that another city still counts (the sender
 * deleted or lost its send after the receive), grouped by the cities involved, each group with
 * what to do: a stocktake of the other city's shelves. Nothing when there are none.
 */
export function CountedInTwoCities({ rows }: { rows: CountedTwice[] }) {
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby="counted-in-two-cities" className="mb-4 grid gap-3 rounded-lg border border-destructive/50 bg-card p-4 text-sm">
      <h2 id="counted-in-two-cities" className="flex items-center gap-2 text-base font-semibold">
        <TriangleAlertIcon aria-hidden className="size-4 text-destructive" />
        Counted in two cities
      </h2>
      <p>These packs are counted in more than one city. A pack is in service in one city at most.</p>
      {countedTwiceGroups(rows).map((g) => (
        <div key={g.key} className="grid gap-2">
          <p>{g.advice}</p>
          <ul aria-label={g.label} className="grid gap-1">
            {g.rows.map((r) => (
              <li key={r.serial} className="break-words">
                <span className="font-mono text-xs">{r.serial}</span> — {countedTwiceWords(r)}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
