import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

/** PACK_STATES are the pack states in the order the list shows them (DESIGN.md §14). */
export const PACK_STATES = ["in_service", "maintenance", "quarantined", "retired", "recycled", "lost", "in_transit"] as const;

/** PackState is one of PACK_STATES. */
export type PackState = (typeof PACK_STATES)[number];

/** PackPlace is a ledger account as people read it. */
export type PackPlace = { key: string; kind: string; label: string; userId?: string; assignmentType?: string };

/** MovementRef names a movement: its type and, where it has one, its kind (a manual assignment is a pickup of kind "manual_assignment"). */
export type MovementRef = { id: string; type: string; kind?: string; occurredAt: string };

/** PackSummary is one pack as GET /api/packs answers it. */
export type PackSummary = {
  id: string;
  serial: string;
  model: string;
  chemistry: string;
  nominalWh: number;
  manufacturer: string;
  lot: string;
  manufactured: string;
  inServiceSince: string;
  state: PackState;
  stateBefore?: string;
  chargeCount: number;
  location: PackPlace | null;
  lastSeen: {
    at: string;
    by: { id: string; name: string } | null;
    movement: MovementRef | null;
  } | null;
  missing: boolean;
  /** recall: the recall that quarantined the pack, while it is quarantined by it. */
  recall?: { id: string; reason: string } | null;
  /** lastHolder: the last person who held the pack (the missing list names them). */
  lastHolder?: { id: string; name: string } | null;
  /** worn: under its model's threshold or losing capacity fast (DESIGN.md §16), wornReason saying which in words. */
  worn?: boolean;
  wornReason?: string;
  /** soh: the pack's state of health, % (absent when unknown). */
  soh?: number;
};

/** mustComeBack: a pack its holder must bring to the bay (recalled or quarantined). */
export function mustComeBack(p: Pick<PackSummary, "state" | "recall">): boolean {
  return !!p.recall || p.state === "quarantined";
}

/** PackList is GET /api/packs: a page of packs and the counts per state. */
export type PackList = {
  packs: PackSummary[];
  total: number;
  page: number;
  perPage: number;
  counts: Record<PackState, number>;
  missingDays: number;
};

/** PackFilters narrow the list (empty values are left out of the URL). */
export type PackFilters = { state?: string; location?: string; lot?: string; missing?: boolean; worn?: boolean; q?: string; page?: number };

/** packsUrl is the list's URL for filters (its query key). */
export function packsUrl(f: PackFilters): string {
  const params = new URLSearchParams();
  if (f.state) params.set("state", f.state);
  if (f.location) params.set("location", f.location);
  if (f.lot) params.set("lot", f.lot);
  if (f.missing) params.set("missing", "1");
  if (f.worn) params.set("worn", "1");
  if (f.q?.trim()) params.set("q", f.q.trim());
  if (f.page && f.page > 1) params.set("page", String(f.page));
  const qs = params.toString();
  return qs ? `/api/packs?${qs}` : "/api/packs";
}

/** packsQueryOptions: the packs list for filters (admins and the liaison: all; a driver: the packs they hold). */
export function packsQueryOptions(f: PackFilters) {
  return queryOptions<PackList>({
    queryKey: [packsUrl(f)],
    // a move can move named packs (DESIGN.md §14)
    meta: { staleOn: ["INVENTORY_UPDATED", "packs"] },
    placeholderData: keepPreviousData,
  });
}

/** heldPacksQueryOptions: for a driver, the packs they hold (the list unfiltered); the home's first line (app/first-screen.ts). */
export const heldPacksQueryOptions = packsQueryOptions({});

/** usePacks loads the packs list for filters. */
export function usePacks(f: PackFilters) {
  return useQuery(packsQueryOptions(f));
}
