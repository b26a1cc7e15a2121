import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as z from "zod/mini";
import { apiRequest } from "@/lib/api-client";
import { count } from "@/lib/count";
import { afterWrite, invalidate } from "@/lib/invalidation";

/** QuantityDestination is where removed batteries go: ready (charged) or waiting (still dead). */
export type QuantityDestination = "ready" | "waiting";

/**
 * editQuantitySchema holds the Edit Charging Session Quantity rules for a session holding
 * current batteries: a whole number 0 or more, and where removed batteries go when it is
 * reduced.
 */
export function editQuantitySchema(current: number) {
  return z
    .object({
      quantity: count({ message: "Please enter a valid number 0 or greater" }),
      destination: z.enum(["ready", "waiting", ""]),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (v.quantity < current && !v.destination) {
          ctx.addIssue({ code: "custom", path: ["destination"], message: "Please choose where these batteries are going" });
        }
      }),
    );
}

/** UpdateQuantityInput is the new quantity, the destination and the confirmed action's key. */
export type UpdateQuantityInput = {
  id: string;
  quantity: number;
  destination: QuantityDestination;
  idempotencyKey: string;
};

/**
 * updateChargingSessionQuantity changes a session's quantity (PATCH
 * /api/admin/charging-sessions/{id}/quantity): a reduction sends the removed batteries to
 * destination, an increase draws from waiting.
 */
export function updateChargingSessionQuantity({ id, quantity, destination, idempotencyKey }: UpdateQuantityInput): Promise<unknown> {
  return apiRequest(
    "PATCH",
    `/api/admin/charging-sessions/${encodeURIComponent(id)}/quantity`,
    { quantity, destination },
    { idempotencyKey },
  );
}

/** useUpdateChargingSessionQuantity changes a quantity and refreshes sessions, state and inventory. */
export function useUpdateChargingSessionQuantity() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateChargingSessionQuantity, onSuccess: (answer) => afterWrite(qc, "charging", answer), onError: () => invalidate(qc, "charging") });
}
