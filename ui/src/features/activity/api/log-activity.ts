import { defineAction, num } from "@/features/outbox/api/actions";

/** ActivityKind is what a quick log records: moves (rebalance) or recovers. */
export type ActivityKind = "rebalance" | "retrieves_repairs_dropoff";

/** ACTIVITY_LABELS are the cards' names of the kinds. */
export const ACTIVITY_LABELS: Record<ActivityKind, string> = { rebalance: "Moves", retrieves_repairs_dropoff: "Recovers" };

/** activityBody is a quick log's body: {quantity, notes: '{label} activity logged'} (spec part 1 §7). */
export function activityBody(kind: ActivityKind, quantity: number) {
  return { quantity, notes: `${ACTIVITY_LABELS[kind]} activity logged` };
}

/** rebalanceAction: moves logged (POST /api/driver/rebalance, keyed, through the outbox); they count for pay. */
export const rebalanceAction = defineAction({
  kind: "rebalance",
  url: "/api/driver/rebalance",
  label: (b) => `Moves · ${num(b.quantity)}`,
  effect: (b) => ({ pay: { moves: num(b.quantity) }, feed: { type: "rebalance", quantity: num(b.quantity) } }),
  refreshes: ["activity"],
  edit: [["quantity", "Quantity"]],
});

/** recoversAction: recovers logged (POST /api/driver/retrieves-repairs-dropoff, keyed, through the outbox); they count for pay. */
export const recoversAction = defineAction({
  kind: "retrieves_repairs_dropoff",
  url: "/api/driver/retrieves-repairs-dropoff",
  label: (b) => `Recovers · ${num(b.quantity)}`,
  effect: (b) => ({ pay: { recovers: num(b.quantity) }, feed: { type: "retrieves_repairs_dropoff", quantity: num(b.quantity) } }),
  refreshes: ["activity"],
  edit: [["quantity", "Quantity"]],
});
