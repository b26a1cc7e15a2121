import { useMutation, useQueryClient } from "@tanstack/react-query";
import { afterWrite, invalidate } from "@/lib/invalidation";
import { apiRequest } from "@/lib/api-client";

/** SessionActionInput names a session and the confirmed action's idempotency key. */
export type SessionActionInput = { id: string; idempotencyKey: string };

/**
 * CompleteInput is Mark Done's input: the session, the key and, under pack tracking, the packs
 * scanned coming off the charger (DESIGN.md §14; none: the packs the records put on it).
 */
export type CompleteInput = SessionActionInput & { packs?: string[] };

/** completeChargingSession marks a session done: its batteries go to ready (POST /api/admin/charge/{id}/complete). */
export function completeChargingSession({ id, idempotencyKey, packs }: CompleteInput): Promise<unknown> {
  return apiRequest("POST", `/api/admin/charge/${encodeURIComponent(id)}/complete`, packs?.length ? { packs } : {}, { idempotencyKey });
}

/** useCompleteChargingSession is Mark Done; it refreshes sessions, state and inventory. */
export function useCompleteChargingSession() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: completeChargingSession, onSuccess: (answer) => afterWrite(qc, "charging", answer), onError: () => invalidate(qc, "charging") });
}
