import { queryOptions, useQueries } from "@tanstack/react-query";
import { ApiError, getJSON } from "@/lib/api-client";
import type { PackInfo } from "@/features/scan/utils/scan-list";

/** PackLookup is one serial as GET /api/packs/lookup answers it: public attributes only. */
export type PackLookup = { serial: string; known: boolean; model?: string; state?: string };

/** LOOKUP_MAX is how many serials one GET /api/packs/lookup checks (the server refuses more). */
export const LOOKUP_MAX = 50;

/** packLookupUrl is the lookup's URL for serials (one serial's URL is its query key). */
export function packLookupUrl(serials: readonly string[]): string {
  return `/api/packs/lookup?serials=${serials.map(encodeURIComponent).join(",")}`;
}

// Serials asked in the same tick (a restored list, a burst of scans) go in one request.
let pending: Map<string, { resolve: (v: PackLookup) => void; reject: (e: unknown) => void }[]> | undefined;

function flush() {
  const batch = pending;
  pending = undefined;
  if (!batch) return;
  const serials = [...batch.keys()];
  for (let i = 0; i < serials.length; i += LOOKUP_MAX) {
    const chunk = serials.slice(i, i + LOOKUP_MAX);
    getJSON<{ packs: PackLookup[] } | PackLookup>(packLookupUrl(chunk)).then(
      (res) => {
        const by = new Map(answered(res).map((p) => [p.serial, p]));
        for (const s of chunk) for (const w of batch.get(s) ?? []) w.resolve(by.get(s) ?? { serial: s, known: false });
      },
      (e: unknown) => {
        for (const s of chunk) for (const w of batch.get(s) ?? []) w.reject(e);
      },
    );
  }
}

/**
 * answered reads a lookup's answer: the server's {packs}, or offline the one serial's lookup
 * the offline read cache kept under its one-serial URL (it keeps a query's data, and a
 * serial's query holds its PackLookup).
 */
function answered(res: { packs: PackLookup[] } | PackLookup | null): PackLookup[] {
  if (!res) return [];
  if ("packs" in res && Array.isArray(res.packs)) return res.packs;
  return "serial" in res && typeof res.serial === "string" ? [res] : [];
}

/** lookupPack checks serial, batched with the others asked in the same tick. */
export function lookupPack(serial: string): Promise<PackLookup> {
  return new Promise((resolve, reject) => {
    if (!pending) {
      pending = new Map();
      setTimeout(flush, 0);
    }
    const waiting = pending.get(serial) ?? [];
    waiting.push({ resolve, reject });
    pending.set(serial, waiting);
  });
}

/** packLookupQueryOptions checks one serial (its state changes with any pack-moving write). */
export function packLookupQueryOptions(serial: string) {
  return queryOptions<PackLookup>({
    queryKey: [packLookupUrl([serial])],
    queryFn: () => lookupPack(serial),
    retry: false,
    meta: { silentError: true, staleOn: ["INVENTORY_UPDATED", "packs", "driverOps", "charging", "custody"] },
  });
}

/** lookupInfo reads a lookup's query state as the row shows it. */
export function lookupInfo(q: { data?: PackLookup; error: unknown; isPending: boolean }): PackInfo {
  if (q.data) return q.data.known ? { status: "known", model: q.data.model ?? "", state: q.data.state ?? "" } : { status: "unknown" };
  if (q.error) return q.error instanceof ApiError ? { status: "failed" } : { status: "offline" };
  return { status: "checking" };
}

/** usePackLookups checks serials (each cached on its own), answering what is known of each. */
export function usePackLookups(serials: readonly string[]): Record<string, PackInfo> {
  return useQueries({
    queries: serials.map((s) => packLookupQueryOptions(s)),
    combine: (results) => Object.fromEntries(results.map((r, i) => [serials[i], lookupInfo(r)])),
  });
}
