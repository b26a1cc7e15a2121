import { useMutation, useQueryClient } from "@tanstack/react-query";
import { afterWrite } from "@/lib/invalidation";
import { apiRequest } from "@/lib/api-client";

/** UpdateMovementInput corrects a movement to good + dead batteries (pickup and adjustment: good = total, dead = 0). */
export type UpdateMovementInput = {
  id: string;
  goodBatteries: number;
  deadBatteries: number;
  notes: string;
  idempotencyKey: string;
};

/** updateMovement is PUT /api/admin/movements/{id}. */
export function updateMovement({ id, idempotencyKey, ...body }: UpdateMovementInput) {
  return apiRequest("PUT", `/api/admin/movements/${encodeURIComponent(id)}`, body, { idempotencyKey });
}

/** useUpdateMovement corrects a movement and refreshes every feed and figure. */
export function useUpdateMovement() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateMovement, onSuccess: (answer) => afterWrite(qc, "activity", answer) });
}
