import { useMutation, useQueryClient } from "@tanstack/react-query";
import { afterWrite, invalidate } from "@/lib/invalidation";
import { apiRequest } from "@/lib/api-client";

/** DeleteAssignmentInput names the holder by user id (all their holdings go) and the action's key. */
export type DeleteAssignmentInput = { id: string; idempotencyKey: string };

/** deleteAssignment moves every holding of user id to waiting (DELETE /api/admin/assignments/{id}). */
export function deleteAssignment({ id, idempotencyKey }: DeleteAssignmentInput): Promise<unknown> {
  return apiRequest("DELETE", `/api/admin/assignments/${encodeURIComponent(id)}`, undefined, { idempotencyKey });
}

/** useDeleteAssignment deletes assignments and refreshes holders, state and inventory. */
export function useDeleteAssignment() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteAssignment, onSuccess: (answer) => afterWrite(qc, "custody", answer), onError: () => invalidate(qc, "custody") });
}
