import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as z from "zod/mini";
import { invalidate } from "@/lib/invalidation";
import { apiRequest } from "@/lib/api-client";
import { count, MAX_FLEET } from "@/lib/count";

/** overrideCount is one count of the override: required, whole, min or more, at most MAX_FLEET. */
function overrideCount(required: string, min: number) {
  return count({ required, message: "Must be a whole number", min, tooSmall: `Must be at least ${min}`, max: MAX_FLEET, tooLarge: `Must be at most ${MAX_FLEET}` });
}

/**
 * overrideSchema holds the Emergency Inventory Override rules (spec part 2 §5): each count
 * required and a whole number; ready, waiting and charging at least 0, total at least 1.
 */
export const overrideSchema = z.object({
  ready: overrideCount("Ready count is required", 0),
  waiting: overrideCount("Waiting count is required", 0),
  charging: overrideCount("Charging count is required", 0),
  total: overrideCount("Total count is required", 1),
});

/** OverrideValues are the override form's raw values (as typed). */
export type OverrideValues = z.input<typeof overrideSchema>;

/** OverrideCounts are the override's counts once valid. */
export type OverrideCounts = z.output<typeof overrideSchema>;

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
