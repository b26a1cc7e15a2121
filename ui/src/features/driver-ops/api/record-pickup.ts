// zod/mini: the driver dashboard is the first screen on a phone network (DESIGN.md §10).
import * as z from "zod/mini";
import { count } from "@/lib/count";
import { batteryCount } from "@/lib/format";
import { defineAction, num, packsLabel } from "@/features/outbox/api/actions";

/**
 * pickupSchema is the Battery Pickup form (spec part 1 §5): a quantity of 1 or more
 * ('Quantity is required') and the required answer ('This field is required').
 */
export const pickupSchema = z.object({
  quantity: count({ min: 1, message: "Quantity is required" }),
  notes: z.string().check(z.trim(), z.minLength(1, "This field is required"), z.maxLength(2000, "Notes can be at most 2000 characters")),
});

/** PickupInput is the form's text. */
export type PickupInput = z.input<typeof pickupSchema>;

/** PickupBody is the form's output: POST /api/driver/pickup's body, less the packs. */
export type PickupBody = z.output<typeof pickupSchema>;

/**
 * PickupSend is what the outbox stores and sends: the form's body and, under pack tracking,
 * the packs scanned (DESIGN.md §14), so a pickup queued offline replays with its packs.
 */
export type PickupSend = PickupBody & { packs?: string[] };

/**
 * pickupAction: a pickup takes quantity batteries from Ready into the driver's hands
 * (POST /api/driver/pickup, keyed, through the outbox).
 */
export const pickupAction = defineAction({
  kind: "pickup",
  url: "/api/driver/pickup",
  label: (b) => `Pickup · ${batteryCount(num(b.quantity))}${packsLabel(b, ["packs"])}`,
  effect: (b) => ({ holdings: num(b.quantity), pay: {}, feed: { type: "pickup", quantity: num(b.quantity) } }),
  refreshes: ["driverOps"],
  edit: [["quantity", "Quantity"]],
  packs: [["packs", "Packs"]],
});
