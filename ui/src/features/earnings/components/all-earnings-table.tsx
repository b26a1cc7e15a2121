import * as React from "react";
import { QueryStatus } from "@/components/query-status";
import { ResponsiveTable } from "@/components/responsive-table";
import type { Column } from "@/components/table-columns";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Hint } from "@/components/ui/hint";
import {
  type EarningsRow,
  type TaskType,
  useAllEarnings,
  useSetPayReduction,
  useSetWithholding,
} from "@/features/earnings/api/earnings";
import { type AdjustTarget, AdjustTaskDialog, TASK_LABELS } from "@/features/earnings/components/adjust-task-dialog";
import { InlineEdit } from "@/features/earnings/components/inline-edit";
import { PERCENT_RANGE, formatMoney, parseReduction, parseWithholding } from "@/features/earnings/utils/money";
import { isAdminRole, roleLetter } from "@/lib/user";

/**
 * AllEarningsTable is All Users Weekly Earnings (spec part 2 §2): every approved driver, admin
 * and master admin, highest total first; cards on a phone, a table on desktop. Pay reduction
 * and (for admins) pool withholding edit inline; each count opens its task adjustment.
 */
export function AllEarningsTable({ weekStart, data }: { weekStart: string; data: ReturnType<typeof useAllEarnings> }) {
  const reduction = useSetPayReduction();
  const withholding = useSetWithholding();
  const [adjusting, setAdjusting] = React.useState<AdjustTarget>(null);
  const ids = React.useId();
  const rows = data.data?.earnings ?? [];
  const week = data.data?.weekStart ?? weekStart;

  // a count is named by the number it shows (SC 2.5.3); what a tap adjusts is its description
  // (one id per row, task and layout: the phone list and the table are both rendered)
  const count = (r: EarningsRow, t: TaskType, n: number, layout: "list" | "table") => {
    const adjusted = r.adjustments[t];
    if (r.former) {
      return (
        <span className="px-1.5 tabular-nums">
          {n}
          {adjusted && <span className="text-xs text-amber-700">*</span>}
        </span>
      );
    }
    const hint = `${ids}-${layout}-${r.userId}-${t}`;
    return (
      <>
        <Button
          variant="ghost"
          size="sm"
          className="h-auto px-1.5 py-0.5 tabular-nums"
          aria-describedby={hint}
          title={adjusted ? `Adjusted from ${adjusted.originalCount}${adjusted.adjustmentReason ? `: ${adjusted.adjustmentReason}` : ""}` : undefined}
          onClick={() => setAdjusting({ row: r, taskType: t })}
        >
          {n}
          {adjusted && <span className="text-xs text-amber-700">*</span>}
        </Button>
        <Hint id={hint}>{`Adjust ${TASK_LABELS[t]} of ${r.firstName} ${r.lastName}`}</Hint>
      </>
    );
  };
  const reductionEdit = (r: EarningsRow) =>
    r.former ? (
      // padded like InlineEdit's button and its pencil, so the percentages line up down the column
      <span data-former-value className="inline-block pr-[1.375rem] pl-1.5 tabular-nums">
        {r.payReductionPercentage}%
      </span>
    ) : (
      <InlineEdit
        label={`pay reduction of ${r.firstName} ${r.lastName}`}
        value={r.payReductionPercentage}
        display={`${r.payReductionPercentage}%`}
        parse={parseReduction}
        message={PERCENT_RANGE}
        onSave={(percent) => reduction.mutate({ userId: r.userId, percent })}
      />
    );
  const withholdingEdit = (r: EarningsRow) =>
    isAdminRole(r.role) && !r.former ? (
      <InlineEdit
        label={`pool withholding of ${r.firstName} ${r.lastName}`}
        value={r.adminPoolWithholdingPercentage}
        display={`${r.adminPoolWithholdingPercentage}%`}
        parse={parseWithholding}
        message={PERCENT_RANGE}
        step="0.1"
        onSave={(w) => withholding.mutate({ userId: r.userId, withholding: w })}
      />
    ) : (
      <span className="text-muted-foreground">—</span>
    );

  const right = { headClassName: "text-right", className: "text-right" };
  const columns: Column<EarningsRow>[] = [
    {
      head: "Name",
      className: "font-medium",
      cell: (r) => (
        <span className="flex items-center gap-2">
          <Badge variant="outline" className="font-mono">
            {roleLetter(r.role)}
          </Badge>
          {r.firstName} {r.lastName}
          {r.former && <span className="font-normal text-muted-foreground">{FORMER}</span>}
        </span>
      ),
    },
    { ...right, head: "Dead Batteries", cell: (r) => count(r, "batteries", r.deadBatteries, "table") },
    { ...right, head: "Moves", cell: (r) => count(r, "moves", r.moves, "table") },
    { ...right, head: "Recovers", cell: (r) => count(r, "recovers", r.recovers, "table") },
    { ...right, head: "Base", className: "text-right tabular-nums", cell: (r) => formatMoney(r.baseEarnings) },
    { ...right, head: "Pay Reduction", cell: reductionEdit },
    { ...right, head: "Pool Withholding", cell: withholdingEdit },
    { ...right, head: "Total", className: "text-right font-semibold tabular-nums", cell: (r) => formatMoney(r.totalEarnings) },
  ];

  // a row as a card on a phone (the table from md up)
  const card = (r: EarningsRow) => (
    <>
      <div className="flex items-start justify-between gap-2">
        <p className="flex min-w-0 items-center gap-2 font-medium">
          <Badge variant="outline" className="font-mono">
            {roleLetter(r.role)}
          </Badge>
          <span className="truncate">
            {r.firstName} {r.lastName}
          </span>
          {/* outside the truncated name: a long name must not hide that the user is gone */}
          {r.former && <span className="shrink-0 font-normal text-muted-foreground">{FORMER}</span>}
        </p>
        <p className="text-lg font-semibold tabular-nums">{formatMoney(r.totalEarnings)}</p>
      </div>
      <dl className="grid grid-cols-4 gap-1 text-sm">
        <Cell label="Dead">{count(r, "batteries", r.deadBatteries, "list")}</Cell>
        <Cell label="Moves">{count(r, "moves", r.moves, "list")}</Cell>
        <Cell label="Recovers">{count(r, "recovers", r.recovers, "list")}</Cell>
        <Cell label="Base">{formatMoney(r.baseEarnings)}</Cell>
      </dl>
      <dl className="grid grid-cols-2 gap-1 text-sm">
        <Cell label="Pay reduction">{reductionEdit(r)}</Cell>
        <Cell label="Pool withholding">{withholdingEdit(r)}</Cell>
      </dl>
    </>
  );

  return (
    <Card role="region" aria-labelledby="all-earnings-title">
      <CardHeader>
        <CardTitle id="all-earnings-title">All Users Weekly Earnings</CardTitle>
        <CardDescription>
          Counts from the week&apos;s movements (* adjusted). Total = base − pay reduction; admins also give to and share the pool.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-3">
        <QueryStatus query={data} skeletonClassName="h-24 w-full" error="Failed to load earnings data" alert empty={data.data && rows.length === 0 && "No drivers or admins yet"} />
        {rows.length > 0 && (
          <ResponsiveTable rows={rows} rowKey={(r) => r.userId} listLabel="Earnings" labelledBy="all-earnings-title" columns={columns} card={card} />
        )}
      </CardContent>
      <AdjustTaskDialog target={adjusting} weekStart={week} onClose={() => setAdjusting(null)} />
    </Card>
  );
}

/** FORMER follows a deleted user's name (the payroll CSV writes the same). */
const FORMER = " (deleted)";

function Cell({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="tabular-nums">{children}</dd>
    </div>
  );
}
