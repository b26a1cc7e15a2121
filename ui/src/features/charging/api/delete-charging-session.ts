import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SessionActionInput } from "@/features/charging/api/complete-charging-session";
import { afterWrite, invalidate } from "@/lib/invalidation";
import { apiRequest } from "@/lib/api-client";

/** deleteChargingSession ends a session: its batteries go back to waiting (DELETE /api/admin/charging-sessions/{id}). */
export function deleteChargingSession({ id, idempotencyKey }: SessionActionInput): Promise<unknown> {
  return apiRequest("DELETE", `/api/admin/charging-sessions/${encodeURIComponent(id)}`, undefined, { idempotencyKey });
}

/** useDeleteChargingSession deletes a session and refreshes sessions, state and inventory. */
export function useDeleteChargingSession() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteChargingSession, onSuccess: (answer) => afterWrite(qc, "charging", answer), onError: () => invalidate(qc, "charging") });
}
