import { useMutation, useQueryClient } from "@tanstack/react-query";
// zod/mini: the driver dashboard is the first screen on a phone network (DESIGN.md §10).
import * as z from "zod/mini";
import { invalidate } from "@/lib/invalidation";
import { apiRequest } from "@/lib/api-client";

const WHOLE = /^\d+$/;
const count = z.string().check(
  z.trim(),
  z.refine((s) => s === "" || WHOLE.test(s), "Must be a valid number 0 or greater"),
);

/** toCount reads a count field: empty is 0 (spec part 1 §5). */
export function toCount(s: string): number {
  const t = s.trim();
  return t === "" ? 0 : Number.parseInt(t, 10);
}

/**
 * dropoffSchema is the Battery Dropoff form (spec part 1 §5): whole numbers 0 or more
 * (empty counts as 0), at least one battery (shown on the good field), notes required.
 */
export const dropoffSchema = z
  .object({
    goodBatteries: count,
    deadBatteries: count,
    notes: z
      .string()
      .check(z.trim(), z.minLength(1, "Please provide notes about your drop-off"), z.maxLength(2000, "Notes can be at most 2000 characters")),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (!WHOLE.test(v.goodBatteries || "0") || !WHOLE.test(v.deadBatteries || "0")) return;
      if (toCount(v.goodBatteries) + toCount(v.deadBatteries) < 1) {
        ctx.addIssue({ code: "custom", path: ["goodBatteries"], message: "You must drop off at least one battery (good or dead)" });
      }
    }),
  );

/** DropoffInput is the form's text. */
export type DropoffInput = z.input<typeof dropoffSchema>;

/** DropoffBody is POST /api/driver/dropoff-batteries's body. */
export type DropoffBody = { goodBatteries: number; deadBatteries: number; notes: string };

/** recordDropoff records good batteries into Ready and dead into Waiting. */
export function recordDropoff({ idempotencyKey, ...body }: DropoffBody & { idempotencyKey: string }) {
  return apiRequest("POST", "/api/driver/dropoff-batteries", body, { idempotencyKey });
}

/** useRecordDropoff records a dropoff and refreshes the figures and feeds. */
export function useRecordDropoff() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: recordDropoff, onSuccess: () => invalidate(qc, "driverOps") });
}
