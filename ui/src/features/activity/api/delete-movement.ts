import { useMutation, useQueryClient } from "@tanstack/react-query";
import { afterWrite } from "@/lib/invalidation";
import { apiRequest } from "@/lib/api-client";

/** deleteMovement is DELETE /api/admin/movements/{id}: its batteries go back. */
export function deleteMovement({ id, idempotencyKey }: { id: string; idempotencyKey: string }) {
  return apiRequest("DELETE", `/api/admin/movements/${encodeURIComponent(id)}`, undefined, { idempotencyKey });
}

/** useDeleteMovement deletes a movement and refreshes every feed and figure. */
export function useDeleteMovement() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteMovement, onSuccess: (answer) => afterWrite(qc, "activity", answer) });
}
