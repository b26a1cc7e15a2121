// zod/mini: the driver dashboard is the first screen on a phone network (DESIGN.md §10).
import * as z from "zod/mini";
import { count } from "@/lib/count";
import { defineAction, num, packsLabel } from "@/features/outbox/api/actions";

const dropoffCount = count({ blankIsZero: true, message: "Must be a valid number 0 or greater" });

/**
 * dropoffSchema is the Battery Dropoff form (spec part 1 §5): whole numbers 0 or more
 * (empty counts as 0), at least one battery (shown on the good field), notes required.
 * It gives the counts as numbers and the notes trimmed.
 */
export const dropoffSchema = z
  .object({
    goodBatteries: dropoffCount,
    deadBatteries: dropoffCount,
    notes: z
      .string()
      .check(z.trim(), z.minLength(1, "Please provide notes about your drop-off"), z.maxLength(2000, "Notes can be at most 2000 characters")),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.goodBatteries + v.deadBatteries < 1) {
        ctx.addIssue({ code: "custom", path: ["goodBatteries"], message: "You must drop off at least one battery (good or dead)" });
      }
    }),
  );

/** DropoffInput is the form's text. */
export type DropoffInput = z.input<typeof dropoffSchema>;

/** DropoffBody is the form's output: POST /api/driver/dropoff-batteries's body, less the packs. */
export type DropoffBody = z.output<typeof dropoffSchema>;

/**
 * DropoffSend is what the outbox stores and sends: the form's body and, under pack tracking,
 * the good and dead packs scanned apart (DESIGN.md §14).
 */
export type DropoffSend = DropoffBody & { goodPacks?: string[]; deadPacks?: string[] };

/**
 * dropoffAction: a dropoff records good batteries into Ready and dead into Waiting
 * (POST /api/driver/dropoff-batteries, keyed, through the outbox); dead ones count for pay.
 */
export const dropoffAction = defineAction({
  kind: "dropoff",
  url: "/api/driver/dropoff-batteries",
  label: (b) => `Dropoff · ${num(b.goodBatteries)} good, ${num(b.deadBatteries)} dead${packsLabel(b, ["goodPacks", "deadPacks"])}`,
  effect: (b) => {
    const good = num(b.goodBatteries);
    const dead = num(b.deadBatteries);
    return {
      holdings: -(good + dead),
      pay: { deadBatteries: dead },
      feed: { type: "dropoff", quantity: good + dead, goodBatteries: good, deadBatteries: dead },
    };
  },
  refreshes: ["driverOps"],
  edit: [
    ["goodBatteries", "Good Batteries"],
    ["deadBatteries", "Dead Batteries"],
  ],
  packs: [
    ["goodPacks", "Good packs"],
    ["deadPacks", "Dead packs"],
  ],
});
