import { useMutation, useQueryClient } from "@tanstack/react-query";
// zod/mini: the driver dashboard is the first screen on a phone network (DESIGN.md §10).
import * as z from "zod/mini";
import { apiRequest } from "@/lib/api-client";
import { count } from "@/lib/count";
import { afterWrite } from "@/lib/invalidation";

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

/** PickupBody is POST /api/driver/pickup's body (the schema's output). */
export type PickupBody = z.output<typeof pickupSchema>;

/** recordPickup takes quantity batteries from Ready into the caller's hands. */
export function recordPickup({ idempotencyKey, ...body }: PickupBody & { idempotencyKey: string }) {
  return apiRequest("POST", "/api/driver/pickup", body, { idempotencyKey });
}

/** useRecordPickup records a pickup and refreshes the figures and feeds. */
export function useRecordPickup() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: recordPickup, onSuccess: (answer) => afterWrite(qc, "driverOps", answer) });
}
