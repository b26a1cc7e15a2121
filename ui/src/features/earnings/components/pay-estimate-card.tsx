import { WalletIcon } from "lucide-react";
import { QueryStatus } from "@/components/query-status";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { usePayEstimate } from "@/features/earnings/api/earnings";
import { DAILY_TARGET, formatMoney } from "@/features/earnings/utils/money";
import { errorMessage } from "@/lib/api-client";
import { weekday } from "@/lib/format";


/**
 * PayEstimateCard is the driver's pay estimate (spec part 2 §2): this week's total after the
 * pay reduction, the counts it comes from, and progress against the daily target (20
 * batteries, 60 moves, 0 recovers) times the days begun. Refreshes every 60 s and after the
 * driver's own actions.
 */
export function PayEstimateCard({ pending }: { pending?: { actions: number; deadBatteries: number; moves: number; recovers: number } }) {
  const est = usePayEstimate();
  const days = weekday(); // days of the week begun, in the operation's zone (Monday 1 … Sunday 7)
  const e = est.data;
  return (
    <Card role="region" aria-labelledby="pay-estimate-title">
      <CardHeader>
        <CardTitle id="pay-estimate-title" className="flex items-center gap-2">
          <WalletIcon aria-hidden className="size-5 text-emerald-700" />
          This Week&apos;s Pay Estimate
        </CardTitle>
        <CardDescription>{e ? `${e.weekStart} to ${e.weekEnd}` : "Monday to Sunday"}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <QueryStatus query={est} skeletonClassName="h-20 w-full" error={errorMessage(est.error, "Failed to load earnings data")} alert />
        {e && (
          <>
            <div>
              <div className="text-3xl font-bold tabular-nums" data-testid="pay-estimate-total">
                {formatMoney(e.totalEarnings)}
              </div>
              <p className="text-sm text-muted-foreground">
                {formatMoney(e.baseEarnings)} earned, {100 - e.payReductionPercentage}% paid to you
              </p>
            </div>
            <ul className="grid gap-3" aria-label="Progress against the daily target">
              <Progress label="Dead batteries" done={e.deadBatteries + (pending?.deadBatteries ?? 0)} target={DAILY_TARGET.deadBatteries * days} />
              <Progress label="Moves" done={e.moves + (pending?.moves ?? 0)} target={DAILY_TARGET.moves * days} />
              <Progress label="Recovers" done={e.recovers + (pending?.recovers ?? 0)} target={DAILY_TARGET.recovers * days} />
            </ul>
            {pending && pending.actions > 0 && (
              <p className="text-xs font-medium text-amber-800">
                Progress includes {pending.actions} {pending.actions === 1 ? "action" : "actions"} waiting to send; the total follows once the
                server records {pending.actions === 1 ? "it" : "them"}.
              </p>
            )}
            <p className="text-xs text-muted-foreground">
              Daily target: {DAILY_TARGET.deadBatteries} batteries, {DAILY_TARGET.moves} moves, {DAILY_TARGET.recovers} recovers.
            </p>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function Progress({ label, done, target }: { label: string; done: number; target: number }) {
  const pct = target > 0 ? Math.min(100, Math.round((100 * done) / target)) : 100;
  return (
    <li className="grid gap-1">
      <div className="flex justify-between text-sm">
        <span>{label}</span>
        <span className="tabular-nums text-muted-foreground">
          {done}
          {target > 0 ? ` / ${target}` : ""}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={`${label} against the target`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full rounded-full bg-emerald-600" style={{ width: `${pct}%` }} />
      </div>
    </li>
  );
}
