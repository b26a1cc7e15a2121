import { useMutation, useQueryClient } from "@tanstack/react-query";
// zod/mini: the driver dashboard is the first screen on a phone network (DESIGN.md §10).
import * as z from "zod/mini";
import { apiRequest } from "@/lib/api-client";
import { count } from "@/lib/count";
import { afterWrite } from "@/lib/invalidation";

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

/** DropoffBody is POST /api/driver/dropoff-batteries's body (the schema's output). */
export type DropoffBody = z.output<typeof dropoffSchema>;

/** recordDropoff records good batteries into Ready and dead into Waiting. */
export function recordDropoff({ idempotencyKey, ...body }: DropoffBody & { idempotencyKey: string }) {
  return apiRequest("POST", "/api/driver/dropoff-batteries", body, { idempotencyKey });
}

/** useRecordDropoff records a dropoff and refreshes the figures and feeds. */
export function useRecordDropoff() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: recordDropoff, onSuccess: (answer) => afterWrite(qc, "driverOps", answer) });
}
