import { useMutation, useQueryClient } from "@tanstack/react-query";
import { afterWrite, invalidate } from "@/lib/invalidation";
import { apiRequest } from "@/lib/api-client";

/** SessionActionInput names a session and the confirmed action's idempotency key. */
export type SessionActionInput = { id: string; idempotencyKey: string };

/**
 * CompleteInput is Mark Done's input: the session, the key, under pack tracking the packs
 * scanned coming off the charger (DESIGN.md §14; none: the packs the records put on it), and the
 * energy the charger reported, when known (DESIGN.md §16: the packs' throughput and cycles).
 */
export type CompleteInput = SessionActionInput & { packs?: string[]; energyWh?: number };

/** MAX_ENERGY_WH is the most energy a session may report (the server's bound). */
export const MAX_ENERGY_WH = 100_000;

/** MSG_ENERGY_WH is the server's message for an energy out of bounds (modules/charging.MsgEnergyWh). */
export const MSG_ENERGY_WH = "Energy must be a number above 0 and at most 100000 Wh";

/** energyOf reads the Mark Done dialog's energy field: undefined when blank, NaN when not a valid figure. */
export function energyOf(text: string): number | undefined {
  const t = text.trim().replace(",", ".");
  if (t === "") return undefined;
  const n = /^\d+(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
  return n > 0 && n <= MAX_ENERGY_WH ? n : Number.NaN;
}

/** completeChargingSession marks a session done: its batteries go to ready (POST /api/admin/charge/{id}/complete). */
export function completeChargingSession({ id, idempotencyKey, packs, energyWh }: CompleteInput): Promise<unknown> {
  const body = { ...(packs?.length ? { packs } : {}), ...(energyWh !== undefined ? { energyWh } : {}) };
  return apiRequest("POST", `/api/admin/charge/${encodeURIComponent(id)}/complete`, body, { idempotencyKey });
}

/** useCompleteChargingSession is Mark Done; it refreshes sessions, state and inventory. */
export function useCompleteChargingSession() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: completeChargingSession, onSuccess: (answer) => afterWrite(qc, "charging", answer), onError: () => invalidate(qc, "charging") });
}
