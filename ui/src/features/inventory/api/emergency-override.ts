import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { invalidate } from "@/lib/invalidation";
import { apiRequest } from "@/lib/api-client";

function count(required: string, min: number) {
  return z
    .string()
    .trim()
    .min(1, required)
    .refine((v) => /^\d+$/.test(v), { message: "Must be a whole number" })
    .refine((v) => !/^\d+$/.test(v) || Number(v) >= min, { message: `Must be at least ${min}` });
}

/**
 * overrideSchema holds the Emergency Inventory Override rules (spec part 2 §5): each count
 * required and a whole number; ready, waiting and charging at least 0, total at least 1.
 */
export const overrideSchema = z.object({
  ready: count("Ready count is required", 0),
  waiting: count("Waiting count is required", 0),
  charging: count("Charging count is required", 0),
  total: count("Total count is required", 1),
});

/** OverrideValues are the override form's raw values. */
export type OverrideValues = z.infer<typeof overrideSchema>;

/** OverrideInput is the call's body plus the confirmed action's idempotency key. */
export type OverrideInput = { ready: number; waiting: number; charging: number; total: number; idempotencyKey: string };

/** emergencyOverride sets the pool counts outright (POST /api/admin/emergency-inventory-override). */
export function emergencyOverride({ idempotencyKey, ...body }: OverrideInput): Promise<{ message: string }> {
  return apiRequest<{ message: string }>("POST", "/api/admin/emergency-inventory-override", body, { idempotencyKey });
}

/** useEmergencyOverride applies an override and refreshes every screen's data. */
export function useEmergencyOverride() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: emergencyOverride, onSettled: () => invalidate(qc, "everything") });
}
