import { queryOptions, useQuery } from "@tanstack/react-query";

/** DEFAULT_THRESHOLD is the end-of-life state of health of a model nobody has configured (%). */
export const DEFAULT_THRESHOLD = 80;

/**
 * PackModel is one pack model (a pack's `model` value) with its figures (DESIGN.md §16):
 * nominal Wh, rated Ah and the end-of-life threshold; configured is false while the figures
 * are the defaults (threshold 80, the packs' most common nominal Wh). packs and worn count its packs.
 */
export type PackModel = { model: string; nominalWh: number; ratedAh: number; threshold: number; configured: boolean; packs: number; worn: number };

/** packModelsQueryOptions: GET /api/admin/packs/models (admins; the liaison reads). */
export const packModelsQueryOptions = queryOptions<{ models: PackModel[] }>({
  queryKey: ["/api/admin/packs/models"],
  // packs minted or imported add models; readings change the worn counts
  meta: { staleOn: ["INVENTORY_UPDATED", "CHARGING_UPDATED", "charging", "packs"] },
});

/** usePackModels loads the models list. */
export function usePackModels() {
  return useQuery(packModelsQueryOptions);
}
