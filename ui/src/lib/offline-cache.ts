// The offline read cache (DESIGN.md §12): the last answer of each GET the signed-in screens
// made, in IndexedDB, so a signed-in user opens the app without a network and sees the last
// known figures, marked with their time (lib/connectivity.ts). lib/api-client's getJSON
// asks it only when a read fails for want of a network. It is a separate database from the
// outbox (features/outbox/api/db.ts): clearing it (sign-out, another user) never touches a
// queued action. Loaded lazily, outside the sign-in screen's chunk.
import type { Query, QueryClient } from "@tanstack/react-query";
import { queryKeyUrl } from "@/lib/api-client";
import { openStore } from "@/lib/idb";
import { markCached } from "@/lib/connectivity";

const DB_NAME = "swapbay-reads";
const STORE = "answers";
const USER_URL = "/api/auth/user";

/** Entry is one stored answer. */
type Entry = { url: string; data: unknown; savedAt: number };

const reads = openStore({ db: DB_NAME, version: 1, store: STORE, upgrade: (db) => db.createObjectStore(STORE, { keyPath: "url" }) });
const run = reads.run;

/** served: urls just answered from the cache, so their success is not saved as new. */
const served = new Set<string>();

/**
 * cachedRead returns the stored answer of url (undefined when none) and marks the screen as
 * showing cached figures from the answer's time.
 */
export async function cachedRead<T>(url: string): Promise<T | undefined> {
  try {
    const e = (await run("readonly", (s) => s.get(url))) as Entry | undefined;
    if (!e) return undefined;
    served.add(url);
    markCached(e.savedAt);
    return e.data as T;
  } catch {
    return undefined;
  }
}

/** saveRead stores url's answer with the time it was received. */
export async function saveRead(url: string, data: unknown, savedAt: number): Promise<void> {
  try {
    await run("readwrite", (s) => s.put({ url, data, savedAt } satisfies Entry));
  } catch {
    // a full or blocked store only costs the offline start
  }
}

/** clearReads forgets every stored answer (sign-out, another user). */
export async function clearReads(): Promise<void> {
  try {
    await run("readwrite", (s) => s.clear());
  } catch {
    // nothing stored
  }
}

function isApiRead(q: Query): boolean {
  const k = q.queryKey[0];
  return typeof k === "string" && k.startsWith("/api/");
}

function save(q: Query) {
  if (!isApiRead(q) || q.state.status !== "success") return;
  const url = queryKeyUrl(q.queryKey);
  if (served.delete(url)) return; // came from the cache: keep its own time
  if (url === USER_URL && q.state.data == null) {
    void clearReads();
    return;
  }
  void saveRead(url, q.state.data, q.state.dataUpdatedAt);
}

/**
 * persistReads keeps every successful /api/ read of queryClient in the cache while userId is
 * signed in; the answers of another user are dropped first. It returns the unsubscribe.
 */
export function persistReads(queryClient: QueryClient, userId: string): () => void {
  void (async () => {
    const stored = (await run("readonly", (s) => s.get(USER_URL)).catch(() => undefined)) as Entry | undefined;
    const who = (stored?.data as { id?: string } | null | undefined)?.id;
    if (stored && who !== userId) await clearReads();
    for (const q of queryClient.getQueryCache().getAll()) save(q);
  })();
  return queryClient.getQueryCache().subscribe((ev) => {
    if (ev.type === "updated" && ev.action.type === "success") save(ev.query);
  });
}

/** resetReadCacheForTests forgets the open connection. */
export function resetReadCacheForTests(): void {
  reads.close();
  served.clear();
}
