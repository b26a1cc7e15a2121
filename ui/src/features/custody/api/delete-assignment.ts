import { useCustodyWrite } from "@/features/custody/api/custody-write";
import { apiRequest } from "@/lib/api-client";

/** DeleteAssignmentInput names the holder by user id (all their holdings go) and the action's key. */
export type DeleteAssignmentInput = { id: string; idempotencyKey: string };

/** deleteAssignment moves every holding of user id to waiting (DELETE /api/admin/assignments/{id}). */
export function deleteAssignment({ id, idempotencyKey }: DeleteAssignmentInput): Promise<unknown> {
  return apiRequest("DELETE", `/api/admin/assignments/${encodeURIComponent(id)}`, undefined, { idempotencyKey });
}

/** useDeleteAssignment deletes assignments and refreshes holders, state and inventory. */
export function useDeleteAssignment() {
  return useCustodyWrite(deleteAssignment);
}
