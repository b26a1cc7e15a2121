import { IDBFactory } from "fake-indexeddb";
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  LEGACY_CLAIMED_KEY,
  claimedIds,
  damageAction,
  damagePhotoAction,
  damagePhotos,
  migrateClaimed,
} from "@/features/packs/api/report-damage";
import { registerActions, resetActionsForTests } from "@/features/outbox/api/actions";
import { type OutboxItem, addItems, allItems, closeForTests, getItem } from "@/features/outbox/api/db";
import { getSnapshot, resetForTests, start, submit } from "@/features/outbox/api/outbox";

const item = (kind: string, body: Record<string, unknown>, key: string, extra: Partial<OutboxItem> = {}): OutboxItem => ({
  key,
  kind,
  userId: "u1",
  body,
  occurredAt: "2026-11-27T08:00:00.000Z",
  status: "waiting",
  attempts: 0,
  ...extra,
});

const png = (name: string) => new File(["png"], name, { type: "image/png" });

type Call = { url: string; method: string; body: unknown; key: string | null };

/** stubFetch answers each path from answers (a photo claim with the next id of ids), recording the calls. */
function stubFetch(answers: Record<string, unknown>, ids: string[] = []) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      calls.push({
        url,
        method: init.method ?? "GET",
        body: typeof init.body === "string" ? JSON.parse(init.body) : init.body,
        key: headers.get("Idempotency-Key"),
      });
      const path = url.split("?")[0]!;
      const answer = path === "/api/photos/upload" && ids.length > 0 ? { id: ids.shift(), sha256: "x" } : (answers[path] ?? {});
      return new Response(JSON.stringify(answer), { status: 200, headers: { "Content-Type": "application/json" } });
    }),
  );
  return calls;
}

async function settle() {
  // let the outbox's IndexedDB work and its rounds finish
  for (let i = 0; i < 200; i++) await new Promise((r) => setTimeout(r, 0));
}

const UPLOAD = { "/api/objects/upload": { uploadURL: "/api/objects/put/abc?sig=1" } };
const DAMAGE_URL = "/api/packs/SWB-000001/damage";

beforeEach(() => {
  localStorage.clear();
  globalThis.indexedDB = new IDBFactory();
  closeForTests();
  resetForTests();
  resetActionsForTests();
  registerActions(damagePhotoAction, damageAction);
  vi.spyOn(navigator, "onLine", "get").mockReturnValue(true);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  resetForTests();
});

// A damage report and its photos wait in the outbox's store together: the photos are stored
// before the report in one transaction, each claimed under its own key, and its id is kept on
// the report's item (IndexedDB, not localStorage) until the report is recorded.
describe("the damage report's outbox actions", () => {
  it("a photo is uploaded in three steps and its id kept on the report that names it, in the store", async () => {
    await addItems([item(damageAction.kind, { serial: "SWB-000001", note: "Swollen", photoKeys: ["k-photo", "k-2"] }, "k-report")]);
    const calls = stubFetch({ ...UPLOAD, "/api/photos/upload": { id: "photo1", sha256: "x" } });
    const photo = item(damagePhotoAction.kind, { filename: "s.png", notes: "Damage report · SWB-1: swollen", serial: "SWB-1" }, "k-photo", {
      blob: png("s.png"),
    });
    await damagePhotoAction.send!(photo);
    expect(calls.map((c) => `${c.method} ${c.url.split("?")[0]}`)).toEqual(["POST /api/objects/upload", "PUT /api/objects/put/abc", "POST /api/photos/upload"]);
    expect(calls[2]!.key).toBe("k-photo");
    const [report] = await allItems();
    expect(report!.claimed).toEqual({ "k-photo": "photo1" });
    expect(claimedIds(report!)).toEqual(["photo1"]);
    expect(localStorage.getItem(LEGACY_CLAIMED_KEY)).toBeNull();
  });

  it("the report names its claimed photos in its order (a refused one left out), under its own key", async () => {
    const calls = stubFetch({ [DAMAGE_URL]: { success: true, message: "Damage reported: pack SWB-000001 is quarantined" } });
    const report = item(damageAction.kind, { serial: "SWB-000001", note: "Swollen", photoKeys: ["k1", "k2", "k3"] }, "k-report", {
      claimed: { k3: "p3", k1: "p1", other: "p9" },
    });
    const answer = await damageAction.send!(report);
    expect(answer).toMatchObject({ success: true });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      url: DAMAGE_URL,
      method: "POST",
      key: "k-report",
      body: { note: "Swollen", photos: ["p1", "p3"], occurredAt: "2026-11-27T08:00:00.000Z" },
    });
  });

  it("through the outbox: the photos go first, stored with the report, and the report names their ids", async () => {
    const calls = stubFetch({ ...UPLOAD, [DAMAGE_URL]: { success: true, message: "ok" } }, ["photo-a", "photo-b"]);
    start("u1");
    await settle();
    const { parts, photoKeys } = damagePhotos("SWB-000001", "Swollen", [png("a.png"), png("b.png")]);
    const outcome = await submit(damageAction.kind, { serial: "SWB-000001", note: "Swollen", photoKeys }, { parts });
    expect(outcome).toMatchObject({ status: "sent" });
    const claims = calls.filter((c) => c.url === "/api/photos/upload");
    expect(claims.map((c) => c.key)).toEqual(photoKeys);
    const report = calls.find((c) => c.url === DAMAGE_URL)!;
    expect(report.body).toMatchObject({ photos: ["photo-a", "photo-b"] });
    expect(await allItems()).toEqual([]);
    expect(localStorage.getItem(LEGACY_CLAIMED_KEY)).toBeNull();
  });

  it("offline, the photos and the report are stored together, photos first, one tap's time", async () => {
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    stubFetch({});
    start("u1");
    await settle();
    const { parts, photoKeys } = damagePhotos("SWB-000001", "Swollen", [png("a.png"), png("b.png")]);
    expect(await submit(damageAction.kind, { serial: "SWB-000001", note: "Swollen", photoKeys }, { parts, waitMs: 50 })).toEqual({ status: "queued" });
    const stored = await allItems();
    expect(stored.map((x) => x.kind)).toEqual([damagePhotoAction.kind, damagePhotoAction.kind, damageAction.kind]);
    expect(stored.map((x) => x.key).slice(0, 2)).toEqual(photoKeys);
    expect(new Set(stored.map((x) => x.occurredAt)).size).toBe(1);
    expect(stored[0]!.bytes).toBe(3);
    expect(getSnapshot().items).toHaveLength(3);
  });

  it("labels name the pack and the photos", () => {
    expect(damageAction.label({ serial: "SWB-000001", photoKeys: ["a", "b"] })).toBe("Damage report · SWB-000001 · 2 photos");
    expect(damageAction.label({ serial: "SWB-000001", photoKeys: [] })).toBe("Damage report · SWB-000001");
    expect(damagePhotoAction.label({ serial: "SWB-000001" })).toBe("Damage photo · SWB-000001");
    expect(damageAction.refreshes).toContain("packs");
  });
});

// A phone updated with photos' ids still in localStorage (the version before issue 43) loses
// none: the outbox moves them onto their reports before its first round.
describe("the ids an older version kept in localStorage", () => {
  it("move onto the queued reports that name them when the outbox starts, and the report sends them", async () => {
    const seq = await addItems([item(damageAction.kind, { serial: "SWB-000001", note: "Swollen", photoKeys: ["k1", "k2"] }, "k-report")]);
    localStorage.setItem(LEGACY_CLAIMED_KEY, JSON.stringify({ k1: "p1", k2: "p2", discarded: "p9" }));
    const calls = stubFetch({ [DAMAGE_URL]: { success: true, message: "ok" } });
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false); // the round waits: look at the store first
    start("u1");
    await settle();
    expect((await getItem(seq))!.claimed).toEqual({ k1: "p1", k2: "p2" });
    expect(localStorage.getItem(LEGACY_CLAIMED_KEY)).toBeNull();
    expect(calls).toHaveLength(0);

    vi.spyOn(navigator, "onLine", "get").mockReturnValue(true);
    window.dispatchEvent(new Event("online"));
    await settle();
    expect(calls.map((c) => c.url)).toEqual([DAMAGE_URL]);
    expect(calls[0]!.body).toMatchObject({ photos: ["p1", "p2"] });
    expect(await allItems()).toEqual([]);
  });

  it("stay in localStorage when the store cannot be written, for the next start", async () => {
    localStorage.setItem(LEGACY_CLAIMED_KEY, JSON.stringify({ k1: "p1" }));
    closeForTests();
    const broken = new IDBFactory();
    vi.spyOn(broken, "open").mockImplementation(() => {
      throw new DOMException("storage unavailable", "UnknownError");
    });
    globalThis.indexedDB = broken;
    await expect(migrateClaimed()).rejects.toThrow();
    expect(JSON.parse(localStorage.getItem(LEGACY_CLAIMED_KEY)!)).toEqual({ k1: "p1" });
  });

  it("nothing to move: nothing written", async () => {
    await migrateClaimed();
    expect(await allItems()).toEqual([]);
    expect(localStorage.getItem(LEGACY_CLAIMED_KEY)).toBeNull();
  });
});
