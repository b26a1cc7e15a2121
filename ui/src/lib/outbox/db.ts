// The outbox's IndexedDB store (DESIGN.md §12). Its own database, apart from the offline read
// cache (lib/offline-cache.ts): no cache buster, version change or age ever clears it; only
// a sent item, or the driver's Discard, removes an item.

/** OutboxKind names a registered driver action (lib/outbox/actions.ts). */
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
  /** blob: a photo's bytes (photo items only); bytes: its size, counted against the 50 MB. */
  blob?: Blob;
  bytes?: number;
};

const DB_NAME = "swapbay-outbox";
const STORE = "items";

let opening: Promise<IDBDatabase> | undefined;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true });
    };
    req.onsuccess = () => {
      const db = req.result;
      // another tab's newer version: let it upgrade, reopen on the next call
      db.onversionchange = () => {
        db.close();
        opening = undefined;
      };
      resolve(db);
    };
    req.onerror = () => {
      opening = undefined;
      reject(req.error ?? new Error("IndexedDB open failed"));
    };
  });
  return opening;
}

function done<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error("IndexedDB request failed"));
  });
}

async function tx<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  const t = db.transaction(STORE, mode, { durability: "strict" } as IDBTransactionOptions);
  const result = done(run(t.objectStore(STORE)));
  await new Promise<void>((resolve, reject) => {
    t.oncomplete = () => resolve();
    t.onerror = () => reject(t.error ?? new Error("IndexedDB transaction failed"));
    t.onabort = () => reject(t.error ?? new Error("IndexedDB transaction aborted"));
  });
  return result;
}

/** addItem stores a new item and returns its seq; it resolves once the write is durable. */
export async function addItem(item: OutboxItem): Promise<number> {
  const { seq: _omit, ...rest } = item;
  return Number(await tx("readwrite", (s) => s.add(rest)));
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

/** closeForTests forgets the open connection (tests swap the IndexedDB factory). */
export function closeForTests(): void {
  void opening?.then((db) => db.close()).catch(() => undefined);
  opening = undefined;
}
