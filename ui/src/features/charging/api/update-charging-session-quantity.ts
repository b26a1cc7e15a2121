import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invalidate } from "@/lib/invalidation";
import { apiRequest } from "@/lib/api-client";

/** QuantityDestination is where removed batteries go: ready (charged) or waiting (still dead). */
export type QuantityDestination = "ready" | "waiting";

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
  return useMutation({ mutationFn: updateChargingSessionQuantity, onSettled: () => invalidate(qc, "charging") });
}
