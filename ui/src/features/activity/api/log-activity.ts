import { useMutation, useQueryClient } from "@tanstack/react-query";
import { afterWrite } from "@/lib/invalidation";
import { apiRequest } from "@/lib/api-client";

/** ActivityKind is what a quick log records: moves (rebalance) or recovers. */
export type ActivityKind = "rebalance" | "retrieves_repairs_dropoff";

/** ACTIVITY_LABELS are the cards' names of the kinds. */
export const ACTIVITY_LABELS: Record<ActivityKind, string> = { rebalance: "Moves", retrieves_repairs_dropoff: "Recovers" };

const URLS: Record<ActivityKind, string> = {
  rebalance: "/api/driver/rebalance",
  retrieves_repairs_dropoff: "/api/driver/retrieves-repairs-dropoff",
};

/** LogActivityInput is one quick log entry. */
export type LogActivityInput = { kind: ActivityKind; quantity: number; idempotencyKey: string };

/** logActivity posts {quantity, notes: '{label} activity logged'} (spec part 1 §7). */
export function logActivity({ kind, quantity, idempotencyKey }: LogActivityInput) {
  return apiRequest("POST", URLS[kind], { quantity, notes: `${ACTIVITY_LABELS[kind]} activity logged` }, { idempotencyKey });
}

/** useLogActivity logs moves or recovers, then refreshes the state and the weekly figures. */
export function useLogActivity() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: logActivity, onSuccess: (answer) => afterWrite(qc, "activity", answer) });
}
