// The one IndexedDB wrapper: a database with one object store, opened once and reopened on
// demand. When another tab opens a newer version, this tab's connection closes at once (so
// the upgrade is never blocked) and the next call reopens it — at the newer version, or
// with a clear error when this tab's code is older than the data (the caller shows it; a
// reload brings the newer code). Used by the outbox (features/outbox/api/db.ts) and the offline read
// cache (lib/offline-cache.ts), each with its own database.

/** StoreSpec names a database, its version, its one store and how to create it. */
export type StoreSpec = {
  db: string;
  version: number;
  store: string;
  /** upgrade creates or migrates the store (called in onupgradeneeded). */
  upgrade: (db: IDBDatabase) => void;
  /** durability of write transactions ("strict": the outbox's writes survive a crash). */
  durability?: "strict" | "relaxed" | "default";
  /** onVersionChange is told when another tab's newer version closed this connection. */
  onVersionChange?: () => void;
};

/** Result is what a transaction's work answers once committed: an IDBRequest, or any holder of a result. */
export type Result<T> = { readonly result: T };

/** Store runs transactions on one object store. */
export type Store = {
  /**
   * run runs f in a transaction and resolves, once it has committed, with the result f
   * returned: its request's, or (for a cursor walk) any object whose result is read then.
   */
  run<T>(mode: IDBTransactionMode, f: (s: IDBObjectStore) => Result<T>): Promise<T>;
  /** close forgets the open connection (tests swap the IndexedDB factory). */
  close(): void;
};

/** openStore returns the store of spec; the database opens on the first run. */
export function openStore(spec: StoreSpec): Store {
  let opening: Promise<IDBDatabase> | undefined;

  function open(): Promise<IDBDatabase> {
    opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(spec.db, spec.version);
      req.onupgradeneeded = () => spec.upgrade(req.result);
      req.onsuccess = () => {
        const db = req.result;
        db.onversionchange = () => {
          // another tab's newer version: let it upgrade; the next call reopens
          db.close();
          opening = undefined;
          spec.onVersionChange?.();
        };
        // the browser closed it (storage cleared, disk error): reopen on the next call
        db.onclose = () => {
          opening = undefined;
        };
        resolve(db);
      };
      req.onblocked = () => undefined; // an older tab still closing: onsuccess follows
      req.onerror = () => {
        opening = undefined;
        reject(req.error ?? new Error("IndexedDB open failed"));
      };
    });
    return opening;
  }

  return {
    async run<T>(mode: IDBTransactionMode, f: (s: IDBObjectStore) => Result<T>): Promise<T> {
      const db = await open();
      const t = db.transaction(spec.store, mode, { durability: spec.durability ?? "default" } as IDBTransactionOptions);
      const req = f(t.objectStore(spec.store));
      return new Promise<T>((resolve, reject) => {
        t.oncomplete = () => resolve(req.result);
        t.onerror = () => reject(t.error ?? new Error("IndexedDB transaction failed"));
        t.onabort = () => reject(t.error ?? new Error("IndexedDB transaction aborted"));
      });
    },
    close() {
      void opening?.then((db) => db.close()).catch(() => undefined);
      opening = undefined;
    },
  };
}
