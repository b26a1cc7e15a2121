import type { FeedMovement } from "@/features/activity/api/get-recent-activity";
import { noteCounts } from "@/lib/format-ops";

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
  const counts = m.meta
    ? m.meta.good + m.meta.dead > 0
      ? { good: m.meta.good, dead: m.meta.dead }
      : null
    : m.goodBatteries !== undefined && m.goodBatteries + (m.deadBatteries ?? 0) > 0
      ? { good: m.goodBatteries, dead: m.deadBatteries ?? 0 }
      : noteCounts(m.notes);
  const good = counts ? counts.good : qty;
  const dead = counts ? counts.dead : 0;
  return { good: String(good), dead: String(dead), total: String(qty), notes: userNotes };
}

/** numberOrZero reads a numeric input; anything not numeric falls back to 0 (spec part 1 §5). */
export function numberOrZero(raw: string): number {
  const n = Number.parseInt(raw.trim(), 10);
  return Number.isNaN(n) ? 0 : n;
}

/** MovementCorrection is the PUT body the form produces. */
export type MovementCorrection = { goodBatteries: number; deadBatteries: number; notes: string };

/**
 * correctionFrom turns the draft into the PUT body (Total is sent as good with dead 0), or
 * null when good plus dead is not above 0 ('Invalid Input': 'Total batteries must be
 * greater than 0').
 */
export function correctionFrom(type: string, draft: MovementDraft): MovementCorrection | null {
  const good = usesTotal(type) ? numberOrZero(draft.total) : numberOrZero(draft.good);
  const dead = usesTotal(type) ? 0 : numberOrZero(draft.dead);
  if (good < 0 || dead < 0 || good + dead <= 0) return null;
  return { goodBatteries: good, deadBatteries: dead, notes: draft.notes.trim() };
}

/** INVALID_MOVEMENT_INPUT is the toast for a correction that moves nothing. */
export const INVALID_MOVEMENT_INPUT = { title: "Invalid Input", description: "Total batteries must be greater than 0" } as const;
