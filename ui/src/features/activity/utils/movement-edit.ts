import * as z from "zod/mini";
import type { FeedMovement } from "@/features/activity/api/get-recent-activity";
import { count } from "@/lib/count";
import { movementCounts } from "@/features/activity/utils/movement-summary";

/** EDITABLE_TYPES are the movement types Edit/Correct is offered for (spec part 1 §2). */
export const EDITABLE_TYPES: readonly string[] = ["pickup", "dropoff", "driver_swap_in", "driver_swap_out", "adjustment"];

/** isEditableType reports whether a movement of type can be corrected. */
export function isEditableType(type: string): boolean {
  return EDITABLE_TYPES.includes(type);
}

/** usesTotal reports whether the edit form asks for a Total (pickup, adjustment) rather than Good and Dead. */
export function usesTotal(type: string): boolean {
  return type === "pickup" || type === "adjustment";
}

/** MovementDraft is the edit form's text. */
export type MovementDraft = { good: string; dead: string; total: string; notes: string };

/** initialDraft fills the edit form from the movement: its counts (or the note markers), else its quantity. */
export function initialDraft(m: FeedMovement, userNotes: string): MovementDraft {
  const qty = Math.abs(m.quantity);
  const counts = movementCounts(m);
  const good = counts ? counts.good : qty;
  const dead = counts ? counts.dead : 0;
  return { good: String(good), dead: String(dead), total: String(qty), notes: userNotes };
}

/** MovementCorrection is the PUT body the form produces. */
export type MovementCorrection = { goodBatteries: number; deadBatteries: number; notes: string };

/** INVALID_MOVEMENT_INPUT is the toast for a correction that moves nothing. */
export const INVALID_MOVEMENT_INPUT = { title: "Invalid Input", description: "Total batteries must be greater than 0" } as const;

const draftCount = count({ blankIsZero: true, message: INVALID_MOVEMENT_INPUT.description });

/**
 * correctionSchema turns the edit form's text into the PUT body: Total (pickup, adjustment)
 * is sent as good with dead 0; blank counts are 0; good plus dead must be above 0 (the
 * form's root error, 'Total batteries must be greater than 0').
 */
export function correctionSchema(type: string) {
  return z.pipe(
    z.object({
      good: draftCount,
      dead: draftCount,
      total: draftCount,
      notes: z.string().check(z.trim(), z.maxLength(2000, "Notes can be at most 2000 characters")),
    }),
    z.transform((d, ctx): MovementCorrection => {
      const good = usesTotal(type) ? d.total : d.good;
      const dead = usesTotal(type) ? 0 : d.dead;
      if (good + dead <= 0) {
        ctx.issues.push({ code: "custom", path: ["root"], message: INVALID_MOVEMENT_INPUT.description, input: d });
        return z.NEVER;
      }
      return { goodBatteries: good, deadBatteries: dead, notes: d.notes };
    }),
  );
}
