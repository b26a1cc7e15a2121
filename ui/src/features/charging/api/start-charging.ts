import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { CHARGER_TYPES, type ChargingSession } from "@/features/charging/api/get-charging-sessions";
import { invalidate } from "@/lib/invalidation";
import { apiRequest } from "@/lib/api-client";

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
      .refine((v) => (CHARGER_TYPES as readonly string[]).includes(v), { message: "Charger type is required" }),
    quantity: z
      .string()
      .trim()
      .min(1, "Quantity is required")
      .refine((v) => /^\d+$/.test(v), { message: "Quantity must be a whole number" })
      .refine((v) => !/^\d+$/.test(v) || Number(v) >= 1, { message: "Quantity must be at least 1" })
      .refine((v) => !/^\d+$/.test(v) || Number(v) <= waiting, {
        message: waiting > 0 ? `Only ${waiting} batteries are waiting to charge` : NO_BATTERIES_TO_CHARGE,
      }),
  });
}

/** StartChargingValues are the charge form's raw values (quantity as typed). */
export type StartChargingValues = z.infer<ReturnType<typeof startChargingSchema>>;

/** StartChargingInput is the call's body plus the confirmed action's idempotency key. */
export type StartChargingInput = { chargerType: string; quantity: number; idempotencyKey: string };

/** StartChargingResult is the server's answer (the session record and the new stats). */
export type StartChargingResult = { success: boolean; message: string; session: ChargingSession };

/** startCharging moves quantity waiting batteries into a new session (POST /api/start-charging). */
export function startCharging({ chargerType, quantity, idempotencyKey }: StartChargingInput): Promise<StartChargingResult> {
  return apiRequest<StartChargingResult>("POST", "/api/start-charging", { chargerType, quantity }, { idempotencyKey });
}

/** useStartCharging starts a charging session and refreshes sessions, state and inventory. */
export function useStartCharging() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: startCharging, onSettled: () => invalidate(qc, "charging") });
}
