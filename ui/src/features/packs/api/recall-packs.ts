import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as z from "zod/mini";
import type { PackList, PackState } from "@/features/packs/api/get-packs";
import { apiRequest } from "@/lib/api-client";
import { invalidate } from "@/lib/invalidation";

/** RECALL_BYS are what a recall matches on (DESIGN.md §14), with how each reads. */
export const RECALL_BYS = [
  { value: "lot", label: "Lot" },
  { value: "model", label: "Model" },
  { value: "manufacturer", label: "Manufacturer" },
] as const;

/** RecallBy is one of RECALL_BYS. */
export type RecallBy = (typeof RECALL_BYS)[number]["value"];

/** recallByLabel is how a recall's field reads: "Lot". */
export function recallByLabel(by: string): string {
  return RECALL_BYS.find((b) => b.value === by)?.label ?? by;
}

/** Recall is one recall as the server keeps it. */
export type Recall = { id: string; by: RecallBy; value: string; reason: string; at: string; packCount: number; actor?: { id: string; name: string } | null };

/** RecallPreview is GET /api/admin/packs/recall-preview: how many packs match, how many are quarantined already, and where they are. */
export type RecallPreview = { count: number; alreadyQuarantined: number; places: { place: string; count: number }[] };

/** RecalledPack is one pack of a recall: where it is, who had it last, and whether it is back in the bay. */
export type RecalledPack = {
  serial: string;
  state: PackState;
  place: string;
  lastHolder: { id: string; name: string } | null;
  lastSeenAt: string | null;
  inBay: boolean;
};

/** RecallDetail is GET /api/admin/packs/recalls/{id}. */
export type RecallDetail = { recall: Recall; total: number; inBay: number; packs: RecalledPack[] };

/** recallPreviewUrl is the preview's URL (its query key). */
export function recallPreviewUrl(by: RecallBy, value: string): string {
  return `/api/admin/packs/recall-preview?${new URLSearchParams({ by, value: value.trim() }).toString()}`;
}

/** recallPreviewQueryOptions: how many packs a recall of by = value would quarantine (nothing asked for an empty value). */
export function recallPreviewQueryOptions(by: RecallBy, value: string) {
  return queryOptions<RecallPreview>({
    queryKey: [recallPreviewUrl(by, value)],
    enabled: value.trim() !== "",
    meta: { staleOn: ["INVENTORY_UPDATED", "packs"] },
    placeholderData: keepPreviousData,
  });
}

/** useRecallPreview loads the preview. */
export function useRecallPreview(by: RecallBy, value: string) {
  return useQuery(recallPreviewQueryOptions(by, value));
}

/** recallsQueryOptions: every recall, newest first. */
export const recallsQueryOptions = queryOptions<Recall[]>({
  queryKey: ["/api/admin/packs/recalls"],
  meta: { staleOn: ["packs"] },
});

/** useRecalls loads the recalls. */
export function useRecalls() {
  return useQuery(recallsQueryOptions);
}

/**
 * recallQueryOptions: one recall with its packs. It refetches whenever packs move or change
 * state (a dropoff brings one back to the bay: INVENTORY_UPDATED), so the page follows live.
 */
export function recallQueryOptions(id: string) {
  return queryOptions<RecallDetail>({
    queryKey: [`/api/admin/packs/recalls/${encodeURIComponent(id)}`],
    meta: { staleOn: ["INVENTORY_UPDATED", "packs"] },
  });
}

/** useRecall loads one recall. */
export function useRecall(id: string) {
  return useQuery(recallQueryOptions(id));
}

/** recallSchema is the recall form: what matches, and why. */
export const recallSchema = z.object({
  by: z.enum(["lot", "model", "manufacturer"]),
  value: z.string().check(z.trim(), z.minLength(1, "Choose the lot, model or manufacturer to recall"), z.maxLength(100, "At most 100 characters")),
  reason: z.string().check(z.trim(), z.minLength(1, "Please give a reason for the recall"), z.maxLength(2000, "A reason can be at most 2000 characters")),
});

/** RecallValues are the recall form's values. */
export type RecallValues = z.infer<typeof recallSchema>;

/** RecallAnswer is POST /api/admin/packs/recall's answer. */
export type RecallAnswer = { success: boolean; message: string; recall: Recall };

/** useRecallPacks quarantines every matching pack in one transaction; packs and recalls refetch. */
export function useRecallPacks() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ values, idempotencyKey }: { values: RecallValues; idempotencyKey: string }) =>
      apiRequest<RecallAnswer>("POST", "/api/admin/packs/recall", values, { idempotencyKey }),
    onSuccess: () => invalidate(qc, "packs"),
  });
}

/** RegistryValues are the distinct lots, models and manufacturers of the registry (the recall form suggests them). */
export type RegistryValues = Record<RecallBy, string[]>;

/** registryValues collects the distinct values of packs, most common first. */
export function registryValues(packs: readonly { lot: string; model: string; manufacturer: string }[]): RegistryValues {
  const out = {} as RegistryValues;
  for (const { value: by } of RECALL_BYS) {
    const n = new Map<string, number>();
    for (const p of packs) if (p[by]) n.set(p[by], (n.get(p[by]) ?? 0) + 1);
    out[by] = [...n.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([v]) => v);
  }
  return out;
}

/** registryQueryOptions: the registry's values, read from the first 500 packs (the suggestions need no more). */
export const registryQueryOptions = queryOptions<PackList, Error, RegistryValues>({
  queryKey: ["/api/packs?perPage=500"],
  meta: { staleOn: ["packs"] },
  staleTime: 5 * 60_000,
  select: (list) => registryValues(list.packs),
});

/** useRegistryValues loads the registry's lots, models and manufacturers. */
export function useRegistryValues() {
  return useQuery(registryQueryOptions);
}
