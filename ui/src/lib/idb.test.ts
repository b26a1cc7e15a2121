import { IDBFactory } from "fake-indexeddb";
import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { openStore } from "@/lib/idb";

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

const spec = (onVersionChange?: () => void) => ({
  db: "t",
  version: 1,
  store: "s",
  upgrade: (db: IDBDatabase) => db.createObjectStore("s", { keyPath: "id" }),
  onVersionChange,
});

describe("openStore", () => {
  it("runs requests and answers once committed", async () => {
    const store = openStore(spec());
    await store.run("readwrite", (s) => s.put({ id: 1, v: "a" }));
    expect(await store.run("readonly", (s) => s.get(1))).toEqual({ id: 1, v: "a" });
  });

  it("another tab's newer version is never blocked: the connection closes, says so, and the next call reopens", async () => {
    const told = vi.fn();
    const store = openStore(spec(told));
    await store.run("readwrite", (s) => s.put({ id: 1 }));
    // another tab opens version 2 (its upgrade would wait forever on a connection left open)
    const newer = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open("t", 2);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    expect(told).toHaveBeenCalledOnce();
    newer.close();
    // this tab's code asks for version 1 of a version-2 database: a clear error, not a hang
    await expect(store.run("readonly", (s) => s.get(1))).rejects.toMatchObject({ name: "VersionError" });
    // a tab on the newer code reads the data the upgrade kept
    const current = openStore({ ...spec(), version: 2 });
    expect(await current.run("readonly", (s) => s.get(1))).toEqual({ id: 1 });
  });
});
