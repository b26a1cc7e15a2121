import { ChevronDownIcon } from "lucide-react";
import * as React from "react";
import { QueryStatus } from "@/components/query-status";
import { TableColumns } from "@/components/table-columns";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table } from "@/components/ui/table";
import { useCoreTeam } from "@/features/earnings/api/earnings";
import { formatMoney, poolShares } from "@/features/earnings/utils/money";
import { cn } from "@/lib/utils";

/** money is an amount's column: right-aligned, tabular digits. */
const money = { headClassName: "text-right", className: "text-right tabular-nums" };

/**
 * CoreTeamPoolCard is the Admin Core Team Pool (spec part 2 §2, DESIGN.md §8): what the admins
 * put in, shared equally; the contributions table opens on demand.
 */
export function CoreTeamPoolCard({ weekStart }: { weekStart: string }) {
  const pool = useCoreTeam(weekStart || undefined);
  const [open, setOpen] = React.useState(false);
  const id = React.useId();
  const d = pool.data;
  const share = d ? poolShares(d.adminBreakdown.map((a) => a.poolShare), d.poolShare) : undefined;
  return (
    <Card role="region" aria-labelledby={`${id}-title`}>
      <CardHeader>
        <CardTitle id={`${id}-title`}>Admin Core Team Pool</CardTitle>
        <CardDescription>
          Each admin puts in what they do not keep; the pool is shared equally by{" "}
          {d ? `${d.adminCount} admin${d.adminCount === 1 ? "" : "s"}` : "the admins"}.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <QueryStatus query={pool} skeletonClassName="h-16 w-full" error="Failed to load earnings data" alert />
        {d && (
          <>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              <Figure label="Total Pooled" value={formatMoney(d.totalPooledEarnings)} />
              <Figure label="Admins" value={String(d.adminCount)} />
              {share && <Figure label={share.label} value={share.value} />}
            </dl>
            <div>
              <Button variant="ghost" size="sm" aria-expanded={open} aria-controls={`${id}-table`} onClick={() => setOpen((o) => !o)}>
                <ChevronDownIcon aria-hidden className={cn("transition-transform", open && "rotate-180")} />
                {open ? "Hide contributions" : "Show contributions"}
              </Button>
              {open && (
                <div id={`${id}-table`} className="mt-2 overflow-x-auto">
                  {d.adminBreakdown.length === 0 ? (
                    <p className="text-sm text-muted-foreground">No admins this week</p>
                  ) : (
                    <Table>
                      <TableColumns
                        rows={d.adminBreakdown}
                        rowKey={(a) => a.user.id}
                        columns={[
                          { head: "Admin", className: "font-medium", cell: (a) => `${a.user.firstName} ${a.user.lastName}` },
                          { head: "Individual", ...money, cell: (a) => formatMoney(a.individualEarnings) },
                          { head: "Keeps", ...money, cell: (a) => `${a.adminPoolWithholdingPercentage}%` },
                          { head: "Contribution", ...money, cell: (a) => formatMoney(a.poolContribution) },
                          { head: "Share", ...money, cell: (a) => formatMoney(a.poolShare) },
                          { head: "Total", headClassName: "text-right", className: "text-right font-semibold tabular-nums", cell: (a) => formatMoney(a.totalEarnings) },
                        ]}
                      />
                    </Table>
                  )}
                </div>
              )}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border p-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-xl font-semibold tabular-nums">{value}</dd>
    </div>
  );
}
