import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { afterWrite } from "@/lib/invalidation";

/** STOCKTAKE_URL is the one stocktake route: the preview (dryRun) and the apply (keyed). */
export const STOCKTAKE_URL = "/api/admin/stocktake";

/** PLACES are the places a stocktake counts (DESIGN.md §14), with how each reads: as a choice, and in a sentence (as the server names them). */
export const PLACES = [
  { value: "ready", label: "Ready shelf", name: "the ready shelf" },
  { value: "waiting", label: "Waiting (dead)", name: "the waiting shelf" },
  { value: "quarantine", label: "Quarantine", name: "quarantine" },
  { value: "chargers", label: "Chargers", name: "the chargers" },
  { value: "bay", label: "Whole bay", name: "the whole bay" },
] as const;

/** Place is one of PLACES. */
export type Place = (typeof PLACES)[number]["value"];

/** isPlace reports whether v names a place. */
export function isPlace(v: unknown): v is Place {
  return PLACES.some((p) => p.value === v);
}

/** placeLabel is how a place reads: "Ready shelf". */
export function placeLabel(place: string): string {
  return PLACES.find((p) => p.value === place)?.label ?? place;
}

/** placeName is how a place reads in a sentence: "the ready shelf". */
export function placeName(place: string): string {
  return PLACES.find((p) => p.value === place)?.name ?? place;
}

/** CountedPack is one pack of a stocktake: where the records had it, and for a missing one who had it last. */
export type CountedPack = {
  serial: string;
  state: string;
  from: { key: string; kind: string; label: string } | null;
  lastSeenAt: string;
  lastHolder?: { id: string; name: string } | null;
  /** refusal is why Apply would refuse this pack (a pack sent to another city: pack_in_transit), in the words Apply uses. */
  refusal?: { code: string; message: string };
};

/** StocktakeCounts are the tally's sizes and the place's count before and after. */
export type StocktakeCounts = {
  scanned: number;
  expected: number;
  found: number;
  missing: number;
  unexpected: number;
  wrongPlace: number;
  unknown: number;
  before: number;
  after: number;
  /** refused counts the scanned packs Apply would refuse (each with its refusal). */
  refused: number;
};

/** StocktakeAnswer is POST /api/admin/stocktake's answer (a preview, or the stocktake applied). */
export type StocktakeAnswer = {
  success: boolean;
  message: string;
  place: Place;
  applied: boolean;
  counts: StocktakeCounts;
  found: CountedPack[];
  missing: CountedPack[];
  unexpected: CountedPack[];
  wrongPlace: CountedPack[];
  unknown: string[];
  movement: { id: string } | null;
  stats?: Record<string, number>;
};

/** stocktakeBody is what the route is sent for place and serials (none scanned: the place counted as empty). */
export function stocktakeBody(place: Place, serials: readonly string[], dryRun: boolean) {
  return { place, serials, empty: serials.length === 0, dryRun };
}

/**
 * stocktakePreviewQueryOptions: the live comparison of what was scanned at place with the
 * records (nothing written). It follows every change of the packs or counts, so a pack moved by
 * someone else while the admin counts shows at once.
 */
export function stocktakePreviewQueryOptions(place: Place, serials: readonly string[]) {
  return queryOptions<StocktakeAnswer>({
    queryKey: [STOCKTAKE_URL, "preview", place, serials.join(",")],
    queryFn: ({ signal }) => apiRequest<StocktakeAnswer>("POST", STOCKTAKE_URL, stocktakeBody(place, serials, true), { signal }),
    meta: { staleOn: ["INVENTORY_UPDATED", "CHARGING_UPDATED", "packs", "stats", "charging", "driverOps", "custody"] },
    placeholderData: keepPreviousData,
  });
}

/** useStocktakePreview loads the preview. */
export function useStocktakePreview(place: Place, serials: readonly string[]) {
  return useQuery(stocktakePreviewQueryOptions(place, serials));
}

/** useApplyStocktake writes the stocktake (one keyed movement); the figures and the packs refresh. */
export function useApplyStocktake() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ place, serials, idempotencyKey }: { place: Place; serials: readonly string[]; idempotencyKey: string }) =>
      apiRequest<StocktakeAnswer>("POST", STOCKTAKE_URL, stocktakeBody(place, serials, false), { idempotencyKey }),
    onSuccess: (answer) => afterWrite(qc, ["packs", "stats", "charging", "activity"], answer),
  });
}
