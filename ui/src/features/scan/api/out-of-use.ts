import { queryOptions, useQuery } from "@tanstack/react-query";
import * as React from "react";
import { getJSON } from "@/lib/api-client";

/**
 * OutOfUsePack is one out-of-use pack as GET /api/packs/out-of-use answers it: its serial and
 * the refusal the server gives it when it is named for anywhere but quarantine (code and
 * message in the server's words: modules/journal Refusal).
 */
export type OutOfUsePack = { serial: string; code: string; message: string };

/** OUT_OF_USE_URL is the out-of-use list's URL (and query key). */
export const OUT_OF_USE_URL = "/api/packs/out-of-use";

/**
 * outOfUseQueryOptions reads the out-of-use packs. Like every /api/ read of a signed-in screen
 * it is kept in the offline read cache (lib/offline-cache.ts), so a phone without a network
 * judges its scans by the last list it synced; a pack's state changes with any
 * pack-moving write or a recall (INVENTORY_UPDATED, packs).
 */
export function outOfUseQueryOptions() {
  return queryOptions({
    queryKey: [OUT_OF_USE_URL],
    // the answer as the server gave it: the offline read cache keeps a query's data as the answer of its URL
    queryFn: async () => (await getJSON<{ packs: OutOfUsePack[] }>(OUT_OF_USE_URL)) ?? { packs: [] },
    meta: { silentError: true, staleOn: ["INVENTORY_UPDATED", "packs", "driverOps", "charging", "custody"] },
  });
}

/** useOutOfUse is the out-of-use packs by serial (empty until known, or when enabled is false). */
export function useOutOfUse(enabled: boolean): ReadonlyMap<string, OutOfUsePack> {
  const q = useQuery({ ...outOfUseQueryOptions(), enabled });
  return React.useMemo(() => new Map((q.data?.packs ?? []).map((p) => [p.serial.toUpperCase(), p])), [q.data]);
}
