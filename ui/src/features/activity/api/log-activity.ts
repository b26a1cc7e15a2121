import { defineAction, num } from "@/features/outbox/api/actions";

/** ActivityKind is what a quick log records: moves (rebalance) or recovers. */
export type ActivityKind = "rebalance" | "retrieves_repairs_dropoff";

/** ACTIVITY_LABELS are the cards' names of the kinds. */
export const ACTIVITY_LABELS: Record<ActivityKind, string> = { rebalance: "Moves", retrieves_repairs_dropoff: "Recovers" };

/** activityBody is a quick log's body: {quantity, notes: '{label} activity logged'} (spec part 1 §7). */
export function activityBody(kind: ActivityKind, quantity: number) {
  return { quantity, notes: `${ACTIVITY_LABELS[kind]} activity logged` };
}

/**
 * quickLogAction declares a quick log's queued action (keyed POST to url, through the outbox):
 * its label and feed entry name the kind, and its quantity counts for pay as pay.
 */
function quickLogAction(kind: ActivityKind, url: string, pay: "moves" | "recovers") {
  return defineAction({
    kind,
    url,
    label: (b) => `${ACTIVITY_LABELS[kind]} · ${num(b.quantity)}`,
    effect: (b) => ({ pay: { [pay]: num(b.quantity) }, feed: { type: kind, quantity: num(b.quantity) } }),
    refreshes: ["activity"],
    edit: [["quantity", "Quantity"]],
  });
}

/** rebalanceAction: moves logged (POST /api/driver/rebalance); they count for pay. */
export const rebalanceAction = quickLogAction("rebalance", "/api/driver/rebalance", "moves");

/** recoversAction: recovers logged (POST /api/driver/retrieves-repairs-dropoff); they count for pay. */
export const recoversAction = quickLogAction("retrieves_repairs_dropoff", "/api/driver/retrieves-repairs-dropoff", "recovers");
