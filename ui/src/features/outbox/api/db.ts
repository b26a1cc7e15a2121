// The outbox's IndexedDB store (DESIGN.md §12). Its own database, apart from the offline read
// cache (lib/offline-cache.ts): no cache buster, version change or age ever clears it; only
// a sent item, or the driver's Discard, removes an item.
import type { RefusedPack } from "@/lib/api-client";
import { openStore } from "@/lib/idb";

/** OutboxKind names a registered driver action (features/outbox/api/actions.ts). */
export type OutboxKind = string;

/** OutboxStatus: waiting to be sent, being sent, or refused by the server (kept until Discard). */
export type OutboxStatus = "waiting" | "sending" | "refused";

/** OutboxItem is one driver action as stored. */
export type OutboxItem = {
  /** seq orders the queue (IndexedDB's key generator: increasing, never reused). */
  seq?: number;
  /** key is the Idempotency-Key, minted at the tap (a new one only on Edit & resend). */
  key: string;
  kind: OutboxKind;
  /** userId is the driver who tapped: an item is only ever sent under that user's session. */
  userId: string;
  /** body is the JSON body without occurredAt (photo: {filename, notes}). */
  body: Record<string, unknown>;
  /** occurredAt is the tap's time (RFC 3339), sent with the body. */
  occurredAt: string;
  status: OutboxStatus;
  attempts: number;
  /** error and code: the server's refusal, shown with Discard / Edit & resend. */
  error?: string;
  code?: string;
  /** packs: the packs the refusal names (data.packs), each with its reason: the sheet marks them. */
  packs?: RefusedPack[];
  /** blob: a photo's bytes (photo items only); bytes: its size, counted against the 50 MB. */
  blob?: Blob;
  bytes?: number;
  /**
   * claimed: the ids the server gave the items this one names, by their keys — a damage
   * report's photos, claimed before it (keepClaimed). They wait here, with the item, until it
   * is recorded or discarded.
   */
  claimed?: Record<string, string>;
  /**
   * uploaded: a photo's upload (its URL without the query) once its bytes are stored
   * (keepUploaded): a resend claims that upload again, so the claim's body stays the same under
   * the item's key (lib/idempotency refuses a key repeated with another body).
   */
  uploaded?: string;
};

const store = openStore({
  db: "swapbay-outbox",
  version: 1,
  store: "items",
  upgrade: (db) => {
    if (!db.objectStoreNames.contains("items")) db.createObjectStore("items", { keyPath: "seq", autoIncrement: true });
  },
  durability: "strict",
});
const tx = store.run;

/**
 * addItems stores new items in one transaction, in order (none is stored if one fails), and
 * returns the last one's seq; it resolves once the write is durable.
 */
export async function addItems(items: readonly OutboxItem[]): Promise<number> {
  return Number(
    await tx("readwrite", (s) => {
      let last!: IDBRequest<IDBValidKey>;
      for (const { seq: _omit, ...rest } of items) last = s.add(rest);
      return last;
    }),
  );
}

/** getItem is the stored item seq, or undefined once it is gone (sent, discarded). */
export async function getItem(seq: number): Promise<(OutboxItem & { seq: number }) | undefined> {
  return (await tx("readonly", (s) => s.get(seq))) as (OutboxItem & { seq: number }) | undefined;
}

/** putItem replaces a stored item (same seq). */
export async function putItem(item: OutboxItem & { seq: number }): Promise<void> {
  await tx("readwrite", (s) => s.put(item));
}

/** deleteItem removes an item (sent, or discarded by the driver). */
export async function deleteItem(seq: number): Promise<void> {
  await tx("readwrite", (s) => s.delete(seq));
}

/** allItems lists every stored item in queue order. */
export async function allItems(): Promise<(OutboxItem & { seq: number })[]> {
  return (await tx("readonly", (s) => s.getAll())) as (OutboxItem & { seq: number })[];
}

/**
 * keepClaimed keeps id, the server's id for the item keyed key, on every stored item whose
 * body lists key in field (a damage report's photoKeys), and says how many it found. Read and
 * written in one transaction.
 */
export async function keepClaimed(field: string, key: string, id: string): Promise<number> {
  return tx("readwrite", (s) => {
    const found = { result: 0 };
    const req = s.openCursor();
    req.onsuccess = () => {
      const cursor = req.result;
      if (!cursor) return;
      const item = cursor.value as OutboxItem;
      const listed = item.body[field];
      if (Array.isArray(listed) && listed.includes(key)) {
        found.result++;
        cursor.update({ ...item, claimed: { ...item.claimed, [key]: id } });
      }
      cursor.continue();
    };
    return found;
  });
}

/** keepUploaded keeps url, the upload holding the bytes of the item keyed key, on that item (if still stored). */
export async function keepUploaded(key: string, url: string): Promise<void> {
  await tx("readwrite", (s) => {
    const req = s.openCursor();
    req.onsuccess = () => {
      const cursor = req.result;
      if (!cursor) return;
      const item = cursor.value as OutboxItem;
      if (item.key === key) cursor.update({ ...item, uploaded: url });
      cursor.continue();
    };
    return { result: undefined };
  });
}

/** closeForTests forgets the open connection (tests swap the IndexedDB factory). */
export function closeForTests(): void {
  store.close();
}
