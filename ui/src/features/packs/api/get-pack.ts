import { queryOptions, useQuery } from "@tanstack/react-query";
import type { MovementRef, PackPlace, PackSummary } from "@/features/packs/api/get-packs";

/** PackEvent is one line of a pack's history. */
export type PackEvent = {
  id: string;
  kind: "created" | "imported" | "moved" | "discrepancy" | "state" | "found" | "charged" | "damage" | "transferred" | "received";
  at: string;
  actor: { id: string; name: string } | null;
  reason?: string;
  fromState?: string;
  toState?: string;
  from: PackPlace | null;
  to: PackPlace | null;
  expected: PackPlace | null;
  movement: MovementRef | null;
  session?: string;
  /** photos: a damage report's photos (ids for GET /api/photos/{id}/image). */
  photos?: string[];
  /** recall: the recall a state change belongs to. */
  recall?: string | { id: string } | null;
};

/** eventRecallId is the id of the recall an event belongs to, or "". */
export function eventRecallId(e: PackEvent): string {
  if (!e.recall) return "";
  return typeof e.recall === "string" ? e.recall : e.recall.id;
}

/** PackDetail is GET /api/packs/{serial}: the pack and its history, newest first. */
export type PackDetail = PackSummary & { history: PackEvent[] };

/** packQueryOptions: one pack with its history. */
export function packQueryOptions(serial: string) {
  return queryOptions<PackDetail>({ queryKey: ["/api/packs", encodeURIComponent(serial)], meta: { staleOn: ["INVENTORY_UPDATED", "packs"] } });
}

/** usePack loads one pack with its history. */
export function usePack(serial: string) {
  return useQuery(packQueryOptions(serial));
}
