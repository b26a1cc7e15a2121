import { useMutation, useQueryClient } from "@tanstack/react-query";
// zod/mini: the driver dashboard is the first screen on a phone network (DESIGN.md §10).
import * as z from "zod/mini";
import { invalidate } from "@/lib/invalidation";
import { apiRequest } from "@/lib/api-client";

/**
 * pickupSchema is the Battery Pickup form (spec part 1 §5): a quantity of 1 or more
 * ('Quantity is required') and the required answer ('This field is required').
 */
export const pickupSchema = z.object({
  quantity: z.string().check(
    z.trim(),
    z.refine((s) => /^\d+$/.test(s) && Number.parseInt(s, 10) >= 1, "Quantity is required"),
  ),
  notes: z.string().check(z.trim(), z.minLength(1, "This field is required"), z.maxLength(2000, "Notes can be at most 2000 characters")),
});

/** PickupInput is the form's text. */
export type PickupInput = z.input<typeof pickupSchema>;

/** recordPickup takes quantity batteries from Ready into the caller's hands. */
export function recordPickup({ idempotencyKey, ...body }: { quantity: number; notes: string; idempotencyKey: string }) {
  return apiRequest("POST", "/api/driver/pickup", body, { idempotencyKey });
}

/** useRecordPickup records a pickup and refreshes the figures and feeds. */
export function useRecordPickup() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: recordPickup, onSuccess: () => invalidate(qc, "driverOps") });
}
