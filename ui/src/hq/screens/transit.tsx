import { useQuery } from "@tanstack/react-query";
import { ArrowRightIcon } from "lucide-react";
import { QueryStatus } from "@/components/query-status";
import { Card, CardContent } from "@/components/ui/card";
import { formatDateTime } from "@/lib/format";
import { transitQueryOptions } from "@/hq/api";
import { clause, possessive } from "@/hq/format";
import { HqPageHeader } from "@/hq/shell";

/** TransitScreen: packs sent from one city to another, with what the receiving city has scanned in so far (GET /api/hq/transit). */
export function TransitScreen() {
  const transit = useQuery({ ...transitQueryOptions, meta: { silentError: true } });
  const list = transit.data?.transfers ?? [];
  return (
    <>
      <HqPageHeader title="In transit" description="Packs sent from one city to another, and what the receiving city has scanned in" />
      <QueryStatus
        query={transit}
        skeletonClassName="h-32 w-full"
        error="Failed to load the packs in transit"
        alert
        empty={transit.data && list.length === 0 && "No pack is in transit between cities."}
      />
      {transit.data?.cities
        ?.filter((c) => !c.ok)
        .map((c) => (
          <p key={c.id} role="alert" className="mb-3 text-sm text-destructive">
            {possessive(c.name)} transfers could not be read: {clause(c.error, "its copy is not available")}.
          </p>
        ))}
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
