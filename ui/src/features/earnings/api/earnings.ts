import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/hooks/use-toast";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { invalidate } from "@/lib/invalidation";
import { newIdempotencyKey } from "@/lib/idempotency";

/** EARNINGS_POLL_MS: earnings, the estimate and the rates refresh every 60 s (spec part 2 §9). */
export const EARNINGS_POLL_MS = 60_000;

/** REFRESH_AFTER_EDIT_MS: earnings refetch 1 s after an edit (spec part 2 §4). */
export const REFRESH_AFTER_EDIT_MS = 1_000;

/** Rates are the pay per task (GET /api/admin/pay-rates). */
export type Rates = { deadBattery: number; move: number; recover: number; effectiveAt: string };

/** TaskType names a count an adjustment replaces. */
export type TaskType = "batteries" | "moves" | "recovers";

/** Adjustment is a task adjustment in force (audited on the server). */
export type Adjustment = {
  id: string;
  taskType: TaskType;
  originalCount: number;
  adjustedCount: number;
  adjustmentReason: string;
  created: string;
};

/** EarningsRow is one user's week (DESIGN.md §8). */
export type EarningsRow = {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
  /** a deleted user, paid for the week's work at the pay reduction they had: nothing to edit */
  former: boolean;
  deadBatteries: number;
  moves: number;
  recovers: number;
  baseEarnings: number;
  payReductionPercentage: number;
  adminPoolWithholdingPercentage: number;
  individualEarnings: number;
  poolContribution: number;
  poolShare: number;
  totalEarnings: number;
  counted: { deadBatteries: number; moves: number; recovers: number };
  adjustments: Partial<Record<TaskType, Adjustment>>;
};

/** AllEarnings is GET /api/admin/all-earnings. */
export type AllEarnings = { weekStart: string; weekEnd: string; rates: Rates; earnings: EarningsRow[] };

/** CoreTeam is GET /api/admin/core-team-earnings. */
export type CoreTeam = {
  weekStart: string;
  weekEnd: string;
  totalPooledEarnings: number;
  adminCount: number;
  poolShare: number;
  from: string;
  to: string;
  adminBreakdown: {
    user: { id: string; firstName: string; lastName: string; email: string; role: string };
    individualEarnings: number;
    adminPoolWithholdingPercentage: number;
    poolContribution: number;
    /** poolShare is this member's share as paid (the odd cents go to the first members). */
    poolShare: number;
    totalEarnings: number;
  }[];
};

/** PayEstimate is GET /api/driver/pay-estimate: the caller's own week. */
export type PayEstimate = {
  weekStart: string;
  weekEnd: string;
  totalEarnings: number;
  baseEarnings: number;
  payReductionPercentage: number;
  deadBatteries: number;
  moves: number;
  recovers: number;
  rates: Rates;
};

const week = (url: string, weekStart?: string) => (weekStart ? `${url}?weekStart=${weekStart}` : url);

/** allEarningsQueryOptions: every earner's week (this week without weekStart). */
export function allEarningsQueryOptions(weekStart?: string) {
  return queryOptions<AllEarnings>({
    queryKey: [week("/api/admin/all-earnings", weekStart)],
    meta: { staleOn: ["ACTIVITY_UPDATED", "EARNINGS_UPDATED", "driverOps", "activity", "earnings", "users"] },
    refetchInterval: EARNINGS_POLL_MS,
  });
}

/** coreTeamQueryOptions: the week's pool. */
export function coreTeamQueryOptions(weekStart?: string) {
  return queryOptions<CoreTeam>({
    queryKey: [week("/api/admin/core-team-earnings", weekStart)],
    meta: { staleOn: ["ACTIVITY_UPDATED", "EARNINGS_UPDATED", "driverOps", "activity", "earnings", "users"] },
    refetchInterval: EARNINGS_POLL_MS,
  });
}

/** payRatesQueryOptions: the rates in force now. */
export const payRatesQueryOptions = queryOptions<Rates>({
  queryKey: ["/api/admin/pay-rates"],
  meta: { staleOn: ["EARNINGS_UPDATED", "earnings"] },
  refetchInterval: EARNINGS_POLL_MS,
});

/** payEstimateQueryOptions: the caller's own week. */
export const payEstimateQueryOptions = queryOptions<PayEstimate>({
  queryKey: ["/api/driver/pay-estimate"],
  refetchInterval: EARNINGS_POLL_MS,
  meta: { silentError: true, staleOn: ["ACTIVITY_UPDATED", "EARNINGS_UPDATED", "driverOps", "activity", "earnings"] },
});

/** useAllEarnings reads a week's earnings; its panel shows 'Failed to load earnings data' itself. */
export function useAllEarnings(weekStart?: string) {
  return useQuery({ ...allEarningsQueryOptions(weekStart), meta: { ...allEarningsQueryOptions(weekStart).meta, silentError: true } });
}

/** useCoreTeam reads a week's pool. */
export function useCoreTeam(weekStart?: string) {
  return useQuery({ ...coreTeamQueryOptions(weekStart), meta: { ...coreTeamQueryOptions(weekStart).meta, silentError: true } });
}

/** usePayRates reads the rates in force. */
export function usePayRates() {
  return useQuery({ ...payRatesQueryOptions, meta: { ...payRatesQueryOptions.meta, silentError: true } });
}

/** usePayEstimate reads the caller's estimate. */
export function usePayEstimate() {
  return useQuery(payEstimateQueryOptions);
}

/**
 * useEarningsEdit wraps one earnings edit: the spec's failure title with the server's message,
 * then the earnings refetch after 1 s (spec part 2 §4) whether it worked or not.
 */
function useEarningsEdit<I>(fn: (input: I, key: string) => Promise<unknown>, failure: string, success: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => fn(input, newIdempotencyKey()),
    onSuccess: () => toast({ title: success }),
    onError: (e) => toast({ title: failure, description: errorMessage(e, failure), variant: "destructive" }),
    onSettled: () => {
      setTimeout(() => void invalidate(qc, "earnings"), REFRESH_AFTER_EDIT_MS);
    },
  });
}

/** useSetPayRates saves new rates, effective at once (POST /api/admin/pay-rates). */
export function useSetPayRates() {
  return useEarningsEdit(
    (r: Pick<Rates, "deadBattery" | "move" | "recover">, key) => apiRequest("POST", "/api/admin/pay-rates", r, { idempotencyKey: key }),
    "Failed to update pay rates",
    "Pay rates updated",
  );
}

/** useSetPayReduction changes a user's pay reduction (PUT /api/admin/users/{id}). */
export function useSetPayReduction() {
  return useEarningsEdit(
    ({ userId, percent }: { userId: string; percent: number }, key) =>
      apiRequest("PUT", `/api/admin/users/${encodeURIComponent(userId)}`, { payReductionPercentage: percent }, { idempotencyKey: key }),
    "Failed to update percentage",
    "Pay reduction updated",
  );
}

/** useSetWithholding changes what a core-team member keeps out of the pool. */
export function useSetWithholding() {
  return useEarningsEdit(
    ({ userId, withholding }: { userId: string; withholding: number }, key) =>
      apiRequest("POST", `/api/admin/users/${encodeURIComponent(userId)}/pool-withholding`, { withholding }, { idempotencyKey: key }),
    "Failed to update withholding percentage",
    "Pool withholding updated",
  );
}

/** AdjustInput is a task adjustment as the form sends it. */
export type AdjustInput = {
  userId: string;
  weekStart: string;
  taskType: TaskType;
  originalCount: number;
  adjustedCount: number;
  adjustmentReason: string;
};

/** useAdjustTask saves a task adjustment (POST /api/admin/task-adjustments). */
export function useAdjustTask() {
  return useEarningsEdit(
    (a: AdjustInput, key) => apiRequest("POST", "/api/admin/task-adjustments", a, { idempotencyKey: key }),
    "Failed to save task adjustment",
    "Task adjustment saved",
  );
}
