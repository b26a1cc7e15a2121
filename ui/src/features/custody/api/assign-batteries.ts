import * as z from "zod/mini";
import { useCustodyWrite } from "@/features/custody/api/custody-write";
import { apiRequest } from "@/lib/api-client";
import { count } from "@/lib/count";

/** ASSIGNMENT_FORM_TYPES are the types the assignment form offers (spec part 2 §3), in order. */
export const ASSIGNMENT_FORM_TYPES: readonly string[] = [
  "pickup",
  "home_charger",
  "moving",
  "in_transit",
  "maintenance",
  "delivery",
  "pickup_point",
  "warehouse",
  "storage",
  "repair",
  "other",
];

/**
 * assignmentSchema holds the Manual Battery Assignment rules (spec part 2 §5) for a ready
 * count: driver, quantity (whole number, at least 1, at most ready) and type required;
 * notes optional. The packs scanned (DESIGN.md §14) are checked beside it (usePackLists).
 */
export function assignmentSchema(ready: number) {
  return z.object({
    userId: z.string().check(z.minLength(1, "Driver is required")),
    quantity: count({
      min: 1,
      max: ready,
      required: "Quantity is required",
      message: "Quantity must be a whole number of at least 1",
      tooLarge: `Only ${ready} batteries available`,
    }),
    assignmentType: z.string().check(z.refine((v) => ASSIGNMENT_FORM_TYPES.includes(v), "Assignment type is required")),
    notes: z.string().check(z.maxLength(2000, "Notes can be at most 2000 characters")),
  });
}

/** AssignmentValues are the form's raw values (the quantity as typed). */
export type AssignmentValues = z.input<ReturnType<typeof assignmentSchema>>;

/** AssignmentBody is what the form gives once valid (the quantity as a number). */
export type AssignmentBody = z.output<ReturnType<typeof assignmentSchema>>;

/** AssignInput is the call's body plus the confirmed action's idempotency key. */
export type AssignInput = { userId: string; quantity: number; assignmentType: string; notes: string; packs?: string[]; idempotencyKey: string };

/** assignBatteries gives a user ready batteries under an assignment type (POST /api/admin/assignments). */
export function assignBatteries({ idempotencyKey, packs, ...rest }: AssignInput): Promise<{ message: string }> {
  // the packs named go along only when there are some (tracking off: the body is unchanged)
  const body = packs?.length ? { ...rest, packs } : rest;
  return apiRequest<{ message: string }>("POST", "/api/admin/assignments", body, { idempotencyKey });
}

/** useAssignBatteries records a manual assignment and refreshes holders, state and inventory. */
export function useAssignBatteries() {
  return useCustodyWrite(assignBatteries);
}
