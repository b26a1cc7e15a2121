import { CheckIcon } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "@/components/layouts/app-shell";
import { PackStateBadge } from "@/components/pack-state-badge";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { paths } from "@/config/paths";
import { recallByLabel, useRecall, useRecalls, type Recall, type RecalledPack } from "@/features/packs/api/recall-packs";
import { ListStatus } from "@/features/packs/components/list-status";
import { packCount, recallPath } from "@/features/packs/components/pack-safety";
import { packPath } from "@/features/packs/utils/pack-path";
import { formatDateTime, formatRelativeTime } from "@/lib/format";

/** recallTitle names a recall: "Lot L-2024-07". */
export function recallTitle(r: Pick<Recall, "by" | "value">): string {
  return `${recallByLabel(r.by)} ${r.value}`;
}

/** backInBay is the recall's progress line: "3 of 24 back in the bay". */
export function backInBay(inBay: number, total: number): string {
  return `${inBay} of ${total} back in the bay`;
}

/** standingWords is what a recall that matched no pack here says: it stands for the packs that come (head office's recall, sent to every city). */
export function standingWords(r: Pick<Recall, "by" | "value">): string {
  return `No pack here has ${recallByLabel(r.by).toLowerCase()} ${r.value} yet. The recall stands: a pack of it that is received from another city, minted or imported here is quarantined.`;
}

/**
 * RecallPage is /packs/recalls/<id> (admins; issue 37 item 3): the recall (what, why, when, by
 * whom), "N of M back in the bay" and every recalled pack with its state, place, last holder
 * and when it was last seen, those still out first. It follows live: the query refetches when
 * packs move (realtime) or change state.
 */
export function RecallPage({ id }: { id: string }) {
  const { data, isPending, isError } = useRecall(id);
  if (isPending) return <Skeleton className="h-64 w-full" />;
  if (isError || !data)
    return (
      <div className="space-y-3">
        <h1 className="text-2xl font-bold tracking-tight">Recall</h1>
        <p role="alert">This recall was not found.</p>
        <Link to={paths.packRecalls.path} className="underline">
          All recalls
        </Link>
      </div>
    );
  const { recall, total, inBay } = data;
  const packs = [...data.packs].sort((a, b) => Number(a.inBay) - Number(b.inBay) || a.serial.localeCompare(b.serial));
  const pct = total > 0 ? Math.round((inBay / total) * 100) : 100;
  return (
    <div className="space-y-5">
      <Link to={paths.packRecalls.path} className="text-sm text-muted-foreground underline-offset-4 hover:underline">
        ← All recalls
      </Link>
      <PageHeader title={`Recall: ${recallTitle(recall)}`} description={recall.reason} />
      <p className="text-sm text-muted-foreground">
        {formatDateTime(recall.at)}
        {recall.actor ? ` · ${recall.actor.name}` : ""} · {packCount(recall.packCount)} quarantined
      </p>
      {total === 0 ? (
        <p className="text-muted-foreground">{standingWords(recall)}</p>
      ) : (
        <Card>
          <CardContent className="space-y-2">
            <p className="text-lg font-semibold" role="status" aria-live="polite">
              {backInBay(inBay, total)}
            </p>
            <div
              role="progressbar"
              aria-label="Recalled packs back in the bay"
              aria-valuemin={0}
              aria-valuemax={total}
              aria-valuenow={inBay}
              className="h-2 overflow-hidden rounded bg-muted"
            >
              <div className="h-full bg-emerald-600 transition-[width]" style={{ width: `${pct}%` }} />
            </div>
          </CardContent>
        </Card>
      )}
      {packs.length === 0 ? null : (
        <div className="rounded-lg border bg-card">
          {/* the columns' names on a wide screen; each row names its values for screen readers */}
          <div aria-hidden className={`hidden border-b px-4 py-2 text-xs font-medium text-muted-foreground sm:grid ${COLUMNS}`}>
            <span>Pack</span>
            <span>Place</span>
            <span>Last holder</span>
            <span className="text-right">Last seen</span>
          </div>
          <ul aria-label="Recalled packs" className="divide-y">
            {packs.map((p) => (
              <RecalledPackRow key={p.serial} pack={p} />
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** COLUMNS lay a recalled pack out in a row on a wide screen. */
const COLUMNS = "sm:grid-cols-[14rem_minmax(0,1fr)_minmax(0,1fr)_10rem] sm:gap-3";

function RecalledPackRow({ pack: p }: { pack: RecalledPack }) {
  return (
    <li className={`grid gap-1 px-4 py-3 sm:items-center ${COLUMNS}`}>
      <span className="flex flex-wrap items-center gap-2">
        <Link to={packPath(p.serial)} className="font-mono font-semibold underline-offset-4 hover:underline">
          {p.serial}
        </Link>
        <PackStateBadge state={p.state} />
      </span>
      <span className="min-w-0 text-sm break-words">
        <span className="text-muted-foreground sm:sr-only">Place: </span>
        {p.place || "Unknown"}
      </span>
      <span className="min-w-0 text-sm break-words">
        <span className="text-muted-foreground sm:sr-only">Last holder: </span>
        {p.lastHolder?.name ?? "—"}
      </span>
      <span className="flex items-center gap-2 text-sm sm:justify-end">
        {p.inBay ? (
          <span className="inline-flex items-center gap-1 font-medium text-emerald-700">
            <CheckIcon aria-hidden className="size-4" /> In the bay
          </span>
        ) : (
          <span className="text-muted-foreground">
            {p.lastSeenAt ? (
              <>
                <span className="sm:sr-only">Last seen: </span>
                {formatRelativeTime(p.lastSeenAt)}
              </>
            ) : (
              "Never scanned"
            )}
          </span>
        )}
      </span>
    </li>
  );
}

/** RecallsPage is /packs/recalls (admins): every recall, newest first, each a link to its page. */
export function RecallsPage() {
  const recalls = useRecalls();
  return (
    <div className="space-y-5">
      <Link to={paths.packs.path} className="text-sm text-muted-foreground underline-offset-4 hover:underline">
        ← All packs
      </Link>
      <PageHeader title="Recalls" description="Packs quarantined together by lot, model or manufacturer." />
      <ListStatus query={recalls} error="Could not load the recalls." empty={(d) => d.length === 0 && "No recall yet. Start one from the packs page."}>
        {(d) => (
        <ul aria-label="Recalls" className="divide-y rounded-lg border bg-card">
          {d.map((r) => (
            <li key={r.id}>
              <Link to={recallPath(r.id)} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 hover:bg-muted/50 focus-visible:bg-muted/50 focus-visible:outline-none">
                <span className="font-semibold">{recallTitle(r)}</span>
                <span className="text-sm text-muted-foreground">{packCount(r.packCount)}</span>
                <span className="min-w-0 basis-full text-sm break-words text-muted-foreground sm:ml-auto sm:basis-auto">
                  {formatDateTime(r.at)} · {r.reason}
                </span>
              </Link>
            </li>
          ))}
        </ul>
        )}
      </ListStatus>
    </div>
  );
}
