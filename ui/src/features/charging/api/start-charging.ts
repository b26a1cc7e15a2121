import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as z from "zod/mini";
import { CHARGER_TYPES, type ChargingSession } from "@/features/charging/api/get-charging-sessions";
import { apiRequest } from "@/lib/api-client";
import { count } from "@/lib/count";
import { afterWrite, invalidate } from "@/lib/invalidation";

/** NO_BATTERIES_TO_CHARGE is shown, and submit disabled, when nothing is waiting (spec part 2 §5). */
export const NO_BATTERIES_TO_CHARGE = "No batteries available to charge";

/**
 * startChargingSchema holds the charge form's rules (spec part 2 §5) for a waiting count:
 * charger type required, quantity required, a whole number from 1 to waiting.
 */
export function startChargingSchema(waiting: number) {
  return z.object({
    chargerType: z
      .string()
      .check(z.refine((v) => (CHARGER_TYPES as readonly string[]).includes(v), { message: "Charger type is required" })),
    quantity: count({
      min: 1,
      max: waiting,
      required: "Quantity is required",
      message: "Quantity must be a whole number",
      tooSmall: "Quantity must be at least 1",
      tooLarge: waiting > 0 ? `Only ${waiting} batteries are waiting to charge` : NO_BATTERIES_TO_CHARGE,
    }),
  });
}

/** StartChargingValues are the charge form's raw values (quantity as typed). */
export type StartChargingValues = z.input<ReturnType<typeof startChargingSchema>>;

/** StartChargingBody is the call's body (the schema's output). */
export type StartChargingBody = z.output<ReturnType<typeof startChargingSchema>>;

/**
 * StartChargingInput is the call's body plus the confirmed action's idempotency key and,
 * under pack tracking, the packs scanned onto the charger (DESIGN.md §14).
 */
export type StartChargingInput = StartChargingBody & { idempotencyKey: string; packs?: string[] };

/** StartChargingResult is the server's answer (the session record and the new stats). */
export type StartChargingResult = { success: boolean; message: string; session: ChargingSession };

/** startCharging moves quantity waiting batteries into a new session (POST /api/start-charging). */
export function startCharging({ chargerType, quantity, idempotencyKey, packs }: StartChargingInput): Promise<StartChargingResult> {
  // the packs go along only when there are some (tracking off: the body is unchanged)
  const body = packs?.length ? { chargerType, quantity, packs } : { chargerType, quantity };
  return apiRequest<StartChargingResult>("POST", "/api/start-charging", body, { idempotencyKey });
}

/** useStartCharging starts a charging session and refreshes sessions, state and inventory. */
export function useStartCharging() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: startCharging, onSuccess: (answer) => afterWrite(qc, "charging", answer), onError: () => invalidate(qc, "charging") });
}
