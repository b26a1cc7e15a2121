import * as React from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import type { PackSummary } from "@/features/packs/api/get-packs";
import { DecisionDialog, decisionsFor, type Decision } from "@/features/packs/components/pack-decisions";
import { movementLabel } from "@/features/packs/components/pack-page";
import { PackStateBadge } from "@/components/pack-state-badge";
import { formatDateTime, formatRelativeTime } from "@/lib/format";

/** lastHolderName is who had the pack last: the server's lastHolder, else the person it is with. */
export function lastHolderName(p: Pick<PackSummary, "lastHolder" | "location">): string | null {
  if (p.lastHolder) return p.lastHolder.name;
  return p.location?.kind === "person" || p.location?.userId ? (p.location.label ?? null) : null;
}

/**
 * MissingPacks is the packs page's Missing list (DESIGN.md §14, issue 37 item 4): packs not
 * seen for N days, each with its last holder, place and last movement, and for admins
 * "Declare lost". A pack seen again leaves the list by itself (the server's filter).
 */
export function MissingPacks({ packs, admin, packPath }: { packs: PackSummary[]; admin: boolean; packPath: (serial: string) => string }) {
  const [chosen, setChosen] = React.useState<{ serial: string; decision: Decision } | null>(null);
  return (
    <>
      <ul aria-label="Missing packs" className="divide-y rounded-lg border bg-card">
        {packs.map((p) => {
          const lost = decisionsFor(p.state).find((d) => d.to === "lost");
          const holder = lastHolderName(p);
          return (
            <li key={p.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3">
              <Link to={packPath(p.serial)} className="font-mono font-semibold underline-offset-4 hover:underline">
                {p.serial}
              </Link>
              <PackStateBadge state={p.state} />
              <dl className="grid min-w-0 basis-full grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-sm sm:order-none sm:flex-1 sm:basis-auto">
                <dt className="text-muted-foreground">Last holder</dt>
                <dd className="break-words">{holder ?? "—"}</dd>
                <dt className="text-muted-foreground">Place</dt>
                <dd className="break-words">{p.location?.label ?? "Unknown"}</dd>
                <dt className="text-muted-foreground">Last seen</dt>
                <dd className="break-words">
                  {p.lastSeen ? (
                    <>
                      <time dateTime={p.lastSeen.at} title={formatDateTime(p.lastSeen.at)}>
                        {formatRelativeTime(p.lastSeen.at)}
                      </time>
                      {p.lastSeen.movement ? ` (${movementLabel(p.lastSeen.movement)})` : ""}
                      {p.lastSeen.by ? ` by ${p.lastSeen.by.name}` : ""}
                    </>
                  ) : (
                    "never scanned"
                  )}
                </dd>
              </dl>
              {admin && lost && (
                <Button variant="outline" size="sm" onClick={() => setChosen({ serial: p.serial, decision: lost })} aria-label={`Declare lost: ${p.serial}`}>
                  Declare lost
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <DecisionDialog serial={chosen?.serial ?? ""} decision={chosen?.decision ?? null} onClose={() => setChosen(null)} />
    </>
  );
}
