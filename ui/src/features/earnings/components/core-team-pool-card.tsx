import { ChevronDownIcon } from "lucide-react";
import * as React from "react";
import { QueryStatus } from "@/components/query-status";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useCoreTeam } from "@/features/earnings/api/earnings";
import { formatMoney, poolShares } from "@/features/earnings/utils/money";
import { cn } from "@/lib/utils";

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
                      <TableHeader>
                        <TableRow>
                          <TableHead>Admin</TableHead>
                          <TableHead className="text-right">Individual</TableHead>
                          <TableHead className="text-right">Keeps</TableHead>
                          <TableHead className="text-right">Contribution</TableHead>
                          <TableHead className="text-right">Share</TableHead>
                          <TableHead className="text-right">Total</TableHead>
                        </TableRow>
                      </TableHeader>
                      <TableBody>
                        {d.adminBreakdown.map((a) => (
                          <TableRow key={a.user.id}>
                            <TableCell className="font-medium">
                              {a.user.firstName} {a.user.lastName}
                            </TableCell>
                            <TableCell className="text-right tabular-nums">{formatMoney(a.individualEarnings)}</TableCell>
                            <TableCell className="text-right tabular-nums">{a.adminPoolWithholdingPercentage}%</TableCell>
                            <TableCell className="text-right tabular-nums">{formatMoney(a.poolContribution)}</TableCell>
                            <TableCell className="text-right tabular-nums">{formatMoney(a.poolShare)}</TableCell>
                            <TableCell className="text-right font-semibold tabular-nums">{formatMoney(a.totalEarnings)}</TableCell>
                          </TableRow>
                        ))}
                      </TableBody>
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
