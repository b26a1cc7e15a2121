import { queryOptions, useQuery } from "@tanstack/react-query";
import type { MovementRef, PackPlace, PackSummary } from "@/features/packs/api/get-packs";

/** PackEvent is one line of a pack's history. */
export type PackEvent = {
  id: string;
  kind: "created" | "imported" | "moved" | "discrepancy" | "state" | "found" | "charged" | "damage";
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
};

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
