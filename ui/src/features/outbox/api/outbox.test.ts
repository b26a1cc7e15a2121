import { IDBFactory } from "fake-indexeddb";
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/api-client";
import { defineAction, registerActions, resetActionsForTests } from "@/features/outbox/api/actions";
import { closeForTests } from "@/features/outbox/api/db";
import {
  BACKOFF_MAX_MS,
  KEY_REUSED,
  MAX_PHOTO_BYTES,
  OUTBOX_FULL,
  type StoredItem,
  backoffMs,
  bodyOf,
  classify,
  discard,
  enqueue,
  getSnapshot,
  LOCK_RETRY_MS,
  PERSIST_KEY,
  flush,
  pauseReason,
  persistenceAnswer,
  resend,
  resetForTests,
  sendItem,
  start,
  submit,
} from "@/features/outbox/api/outbox";
import { statusLine } from "@/features/outbox/hooks/use-outbox";

function apiError(status: number, code?: string, message = "Refused") {
  return new ApiError(status, JSON.stringify({ status, message, data: {}, ...(code ? { code } : {}) }));
}

/** a sender that answers from a script of results, recording what it sent. */
function scripted(results: (unknown | Error)[]) {
  const sent: StoredItem[] = [];
  const sender = vi.fn(async (item: StoredItem) => {
    sent.push(item);
    const r = results.length > 0 ? results.shift() : { ok: true };
    if (r instanceof Error) throw r;
    return r;
  });
  return { sent, sender };
}

async function settle() {
  // let the outbox's IndexedDB work and its rounds finish
  for (let i = 0; i < 100; i++) await new Promise((r) => setTimeout(r, 0));
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  closeForTests();
  resetForTests();
  resetActionsForTests();
  // the engine knows only kinds: these stand for the features' declarations (app/driver-actions.ts)
  registerActions(...["pickup", "dropoff", "rebalance", "retrieves_repairs_dropoff", "photo"].map((kind) => defineAction({ kind, url: `/api/test/${kind}`, label: () => kind, refreshes: [] })));
  vi.spyOn(navigator, "onLine", "get").mockReturnValue(true);
});

afterEach(() => {
  vi.restoreAllMocks();
  resetForTests();
});

describe("classify (by status and code, never by message)", () => {
  it("retries what is not an answer, 5xx, 408 and 429", () => {
    expect(classify(new TypeError("Failed to fetch"))).toBe("retry");
    expect(classify(new DOMException("timed out", "TimeoutError"))).toBe("retry");
    expect(classify(apiError(500))).toBe("retry");
    expect(classify(apiError(503))).toBe("retry");
    expect(classify(apiError(429))).toBe("retry");
    expect(classify(apiError(408))).toBe("retry");
  });
  it("pauses on 401 and on the account and terms 403 codes; refuses other 4xx, with or without a code", () => {
    expect(classify(apiError(401, "session_expired"))).toBe("pause");
    expect(classify(apiError(401))).toBe("pause");
    expect(pauseReason(apiError(401, "not_signed_in"))).toBe("signin");
    expect(pauseReason(apiError(403, "terms_resign_required"))).toBe("terms");
    for (const code of ["account_pending", "account_rejected", "account_suspended"]) {
      expect(classify(apiError(403, code))).toBe("pause");
      expect(pauseReason(apiError(403, code))).toBe("account");
    }
    for (const s of [400, 403, 404, 409, 413, 415]) expect(classify(apiError(s))).toBe("refused");
    expect(classify(apiError(403, "forbidden"))).toBe("refused");
    expect(classify(apiError(400, "too_old"))).toBe("refused");
    expect(classify(apiError(409, "key_expired"))).toBe("refused");
    expect(pauseReason(apiError(409, "key_expired"))).toBeNull();
  });
  it("reads the code from the answer", () => {
    expect(apiError(409, "insufficient_holdings").code).toBe("insufficient_holdings");
    expect(apiError(409).code).toBeFalsy();
  });
});

describe("backoffMs", () => {
  it("doubles from 2 s with ±30% jitter, capped at 5 min", () => {
    expect(backoffMs(1, () => 0.5)).toBe(2000);
    expect(backoffMs(2, () => 0.5)).toBe(4000);
    expect(backoffMs(1, () => 0)).toBe(1400);
    expect(backoffMs(1, () => 1)).toBe(2600);
    expect(backoffMs(30, () => 0.5)).toBe(BACKOFF_MAX_MS);
  });
});

describe("the outbox", () => {
  it("stores an action with its key and tap time before the first send, and sends it with occurredAt", async () => {
    const { sent, sender } = scripted([new TypeError("Failed to fetch")]);
    start("u1", { sender });
    const seq = await enqueue("pickup", { quantity: 2, notes: "Y" }, { key: "k-1", occurredAt: "2026-11-25T06:00:00.000Z" });
    await settle();
    expect(seq).toBeGreaterThan(0);
    // the send failed for want of a network: it waits, with the same key
    expect(getSnapshot().items).toMatchObject([{ key: "k-1", status: "waiting", attempts: 1, occurredAt: "2026-11-25T06:00:00.000Z" }]);
    expect(bodyOf(sent[0]!)).toEqual({ quantity: 2, notes: "Y", occurredAt: "2026-11-25T06:00:00.000Z" });
    expect(getSnapshot().offline).toBe(true);
  });

  it("survives a restart (a new page): the items are read back and sent with the same keys", async () => {
    const first = scripted([new TypeError("Failed to fetch"), new TypeError("Failed to fetch")]);
    start("u1", { sender: first.sender });
    await enqueue("rebalance", { quantity: 3, notes: "Moves activity logged" }, { key: "k-a" });
    await enqueue("retrieves_repairs_dropoff", { quantity: 1, notes: "Recovers activity logged" }, { key: "k-b" });
    await settle();
    resetForTests();
    closeForTests();
    const second = scripted([]);
    start("u1", { sender: second.sender });
    await settle();
    expect(second.sent.map((x) => x.key)).toEqual(["k-a", "k-b"]);
    expect(getSnapshot().items).toEqual([]);
    expect(statusLine(getSnapshot())).toBe("All sent");
  });

  it("a refusal keeps the item with the server's message and the rest goes on; Discard removes it", async () => {
    const { sent, sender } = scripted([apiError(409, "insufficient_ready", "Not enough batteries: only 0 ready"), { ok: true }]);
    start("u1", { sender });
    await enqueue("pickup", { quantity: 9, notes: "Y" }, { key: "k-1" });
    await enqueue("rebalance", { quantity: 1, notes: "x" }, { key: "k-2" });
    await settle();
    expect(sent.map((x) => x.key)).toEqual(["k-1", "k-2"]);
    const s = getSnapshot();
    expect(s.items).toMatchObject([{ key: "k-1", status: "refused", error: "Not enough batteries: only 0 ready", code: "insufficient_ready" }]);
    expect(statusLine(s)).toBe("1 refused");
    await discard(s.items[0]!.seq);
    expect(getSnapshot().items).toEqual([]);
  });

  it("Edit & resend sends the edited body under a new key, at its place, with the tap's time", async () => {
    const { sent, sender } = scripted([apiError(409), { ok: true }]);
    start("u1", { sender });
    await enqueue("pickup", { quantity: 9, notes: "Y" }, { key: "k-1", occurredAt: "2026-11-20T10:00:00.000Z" });
    await settle();
    const refused = getSnapshot().items[0]!;
    await resend(refused.seq, { ...refused.body, quantity: 1 });
    await settle();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.key).not.toBe("k-1");
    expect(bodyOf(sent[1]!)).toEqual({ quantity: 1, notes: "Y", occurredAt: "2026-11-20T10:00:00.000Z" });
    expect(getSnapshot().items).toEqual([]);
  });

  it("a forced terms re-sign pauses the queue (nothing refused); after re-signing all are sent once with their keys", async () => {
    const onPause = vi.fn();
    const { sent, sender } = scripted([apiError(403, "terms_resign_required", "Please sign the updated terms")]);
    start("u1", { sender, hooks: { onPause } });
    for (const k of ["k-1", "k-2", "k-3"]) await enqueue("pickup", { quantity: 1, notes: "Y" }, { key: k });
    await settle();
    expect(getSnapshot().paused).toBe("terms");
    expect(onPause).toHaveBeenCalledWith("terms");
    expect(getSnapshot().items.map((x) => [x.key, x.status])).toEqual([
      ["k-1", "waiting"],
      ["k-2", "waiting"],
      ["k-3", "waiting"],
    ]);
    expect(statusLine(getSnapshot())).toBe("Sign the terms again to send 3 actions waiting");
    // nothing more is tried while paused, even on the timer or a new action
    await flush();
    await settle();
    expect(sent.map((x) => x.key)).toEqual(["k-1"]);
    // re-signed: the shell starts the outbox again
    start("u1", { sender });
    await settle();
    expect(sent.map((x) => x.key)).toEqual(["k-1", "k-1", "k-2", "k-3"]);
    expect(getSnapshot().items).toEqual([]);
  });

  it("a suspended account pauses the queue like a sign-in", async () => {
    const { sender } = scripted([apiError(403, "account_suspended")]);
    start("u1", { sender });
    await enqueue("pickup", { quantity: 1, notes: "Y" }, { key: "k-1" });
    await settle();
    expect(getSnapshot().paused).toBe("account");
    expect(getSnapshot().items).toMatchObject([{ key: "k-1", status: "waiting" }]);
  });

  it("a key repeated with another body (409 idempotency_key_reused) is kept refused, in words a driver understands", async () => {
    const { sender } = scripted([apiError(409, "idempotency_key_reused", "This Idempotency-Key was already used for a different request."), { ok: true }]);
    start("u1", { sender });
    await enqueue("pickup", { quantity: 1, notes: "Y" }, { key: "k-1" });
    await enqueue("pickup", { quantity: 2, notes: "Y" }, { key: "k-2" });
    await settle();
    expect(getSnapshot().items).toMatchObject([{ key: "k-1", status: "refused", code: "idempotency_key_reused", error: KEY_REUSED }]);
    expect(getSnapshot().items[0]!.error).not.toMatch(/Idempotency/);
    expect(getSnapshot().paused).toBeNull();
  });

  it("a key older than the server keeps (key_expired) is refused like other refusals, with its message", async () => {
    const { sender } = scripted([apiError(409, "key_expired", "This action is too old to send again. Ask an admin."), { ok: true }]);
    start("u1", { sender });
    await enqueue("pickup", { quantity: 1, notes: "Y" }, { key: "k-old" });
    await enqueue("pickup", { quantity: 1, notes: "Y" }, { key: "k-new" });
    await settle();
    expect(getSnapshot().items).toMatchObject([{ key: "k-old", status: "refused", code: "key_expired", error: "This action is too old to send again. Ask an admin." }]);
    expect(getSnapshot().paused).toBeNull();
  });

  it("asks once for persistent storage when something is queued, and keeps the answer", async () => {
    const persist = vi.fn(async () => true);
    const persisted = vi.fn(async () => false);
    Object.defineProperty(navigator, "storage", { value: { persist, persisted }, configurable: true });
    localStorage.removeItem(PERSIST_KEY);
    expect(persistenceAnswer()).toBeNull();
    start("u1", { sender: scripted([new TypeError("Failed to fetch"), new TypeError("Failed to fetch")]).sender });
    await enqueue("pickup", { quantity: 1, notes: "Y" });
    await enqueue("pickup", { quantity: 2, notes: "Y" });
    await settle();
    expect(persist).toHaveBeenCalledOnce();
    expect(persistenceAnswer()).toMatchObject({ granted: true });
    Reflect.deleteProperty(navigator, "storage");
  });

  it("a tab that is not the sender tries the lock again on a timer and sends once the sender is gone", async () => {
    let held = true;
    const request = vi.fn(async (_name: string, _opts: unknown, run: (lock: unknown) => Promise<void>) => run(held ? null : {}));
    Object.defineProperty(navigator, "locks", { value: { request }, configurable: true });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { sent, sender } = scripted([]);
    start("u1", { sender });
    await enqueue("pickup", { quantity: 1, notes: "Y" }, { key: "k-1" });
    await vi.advanceTimersByTimeAsync(100);
    expect(sent).toHaveLength(0);
    held = false; // the other tab closed
    await vi.advanceTimersByTimeAsync(LOCK_RETRY_MS + 100);
    await vi.waitFor(() => expect(sent.map((x) => x.key)).toEqual(["k-1"]));
    vi.useRealTimers();
    Reflect.deleteProperty(navigator, "locks");
  });

  it("a 401 pauses the queue; a new start (signed in again) sends the same keys", async () => {
    const { sent, sender } = scripted([apiError(401, "session_expired"), { ok: true }]);
    start("u1", { sender });
    await enqueue("dropoff", { goodBatteries: 1, deadBatteries: 1, notes: "n" }, { key: "k-1" });
    await settle();
    expect(getSnapshot().paused).toBe("signin");
    expect(statusLine(getSnapshot())).toBe("Sign in to send 1 action waiting");
    start("u1", { sender });
    await settle();
    expect(sent.map((x) => x.key)).toEqual(["k-1", "k-1"]);
    expect(getSnapshot().items).toEqual([]);
  });

  it("a 5xx keeps the item and stops the round (order is kept)", async () => {
    const { sent, sender } = scripted([apiError(503)]);
    start("u1", { sender });
    await enqueue("pickup", { quantity: 1, notes: "Y" }, { key: "k-1" });
    await enqueue("pickup", { quantity: 2, notes: "Y" }, { key: "k-2" });
    await settle();
    expect(sent.map((x) => x.key)).toEqual(["k-1"]);
    expect(getSnapshot().items.map((x) => x.status)).toEqual(["waiting", "waiting"]);
  });

  it("sends nothing while the browser is offline", async () => {
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    const { sent, sender } = scripted([]);
    start("u1", { sender });
    await enqueue("pickup", { quantity: 1, notes: "Y" });
    await settle();
    expect(sent).toHaveLength(0);
    expect(statusLine(getSnapshot())).toBe("Offline · 1 action waiting");
  });

  it("only sends the signed-in user's items", async () => {
    const a = scripted([new TypeError("Failed to fetch")]);
    start("alice", { sender: a.sender });
    await enqueue("pickup", { quantity: 1, notes: "Y" }, { key: "alice-1" });
    await settle();
    const b = scripted([]);
    start("bob", { sender: b.sender });
    await settle();
    expect(b.sent).toHaveLength(0);
    expect(getSnapshot().items).toEqual([]);
  });

  it("another account's items on a shared phone (signed out, suspended, deleted) are shown to the next driver, and its photos do not fill their outbox", async () => {
    const a = scripted([new TypeError("Failed to fetch")]);
    start("alice", { sender: a.sender });
    const big = new Blob([new Uint8Array(MAX_PHOTO_BYTES - 10)], { type: "image/jpeg" });
    await enqueue("photo", { filename: "a.jpg", notes: "" }, { blob: big, key: "alice-1" });
    await settle();
    const b = scripted([new TypeError("Failed to fetch")]);
    start("bob", { sender: b.sender });
    await settle();
    expect(getSnapshot().others).toBe(1);
    expect(statusLine(getSnapshot())).toBe("1 action of another account waiting on this phone");
    await enqueue("photo", { filename: "b.jpg", notes: "" }, { blob: new Blob([new Uint8Array(20)]), key: "bob-1" });
    await settle();
    expect(getSnapshot().items.map((x) => x.key)).toEqual(["bob-1"]);
    expect(b.sent.every((x) => x.userId === "bob")).toBe(true);
    expect(statusLine(getSnapshot())).toMatch(/· 1 action of another account$/);
  });

  it("submit tells the form: sent, refused (the item is removed: the form shows it), or queued", async () => {
    const { sender } = scripted([{ id: "m1" }, apiError(400, "validation_failed"), new TypeError("Failed to fetch")]);
    start("u1", { sender });
    expect(await submit("pickup", { quantity: 1, notes: "Y" })).toEqual({ status: "sent", answer: { id: "m1" } });
    const refused = await submit("pickup", { quantity: 1, notes: "" });
    expect(refused.status).toBe("refused");
    expect(getSnapshot().items).toEqual([]);
    expect(await submit("pickup", { quantity: 1, notes: "Y" })).toEqual({ status: "queued" });
    expect(getSnapshot().items).toHaveLength(1);
  });

  it("refuses a photo past 50 MB of queued photos with a clear message", async () => {
    const { sender } = scripted([new TypeError("Failed to fetch")]);
    start("u1", { sender });
    const big = new Blob([new Uint8Array(MAX_PHOTO_BYTES - 10)], { type: "image/jpeg" });
    await enqueue("photo", { filename: "a.jpg", notes: "" }, { blob: big });
    await expect(enqueue("photo", { filename: "b.jpg", notes: "" }, { blob: new Blob([new Uint8Array(20)]) })).rejects.toThrow(OUTBOX_FULL);
  });
});

describe("registered actions", () => {
  it("an unregistered kind is not stored", async () => {
    start("u1", { sender: scripted([]).sender });
    await expect(enqueue("teleport", { quantity: 1 })).rejects.toThrow("Unknown driver action: teleport");
  });
  it("sendItem sends a registered action by its own send, or as a keyed POST to its url", async () => {
    const own = vi.fn(async () => ({ mine: true }));
    registerActions(defineAction({ kind: "custom", send: own, label: () => "Custom", refreshes: [] }));
    const fetchMock = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(JSON.stringify({ ok: 1 }), { status: 200, headers: { "Content-Type": "application/json" } }));
    const item: StoredItem = { seq: 1, key: "k-9", kind: "pickup", userId: "u1", body: { quantity: 1 }, occurredAt: "2026-11-25T06:00:00.000Z", status: "waiting", attempts: 0 };
    expect(await sendItem(item)).toEqual({ ok: 1 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/test/pickup");
    expect(new Headers(init?.headers).get("Idempotency-Key")).toBe("k-9");
    expect(JSON.parse(String(init?.body))).toEqual({ quantity: 1, occurredAt: "2026-11-25T06:00:00.000Z" });
    expect(await sendItem({ ...item, kind: "custom" })).toEqual({ mine: true });
    expect(own).toHaveBeenCalledOnce();
    // a kind stored by another version of the app: refused with a message, never lost silently
    await expect(sendItem({ ...item, kind: "gone" })).rejects.toMatchObject({ status: 400, code: "unknown_kind" });
  });
});

describe("the status line", () => {
  const item = (kind: StoredItem["kind"]): StoredItem => ({ seq: 1, key: `k-${kind}`, kind, userId: "u1", body: {}, occurredAt: "2026-11-25T06:00:00.000Z", status: "waiting", attempts: 0 });
  const items = [item("pickup"), item("dropoff"), item("rebalance")];
  it("the status line", () => {
    const base = { items: [], sent: [], sending: null, paused: null, offline: false };
    expect(statusLine(base)).toBeNull();
    expect(statusLine({ ...base, items: items.slice(0, 3), offline: true })).toBe("Offline · 3 actions waiting");
    expect(statusLine({ ...base, items: items.slice(0, 3), sending: { index: 2, total: 3 } })).toBe("Sending 2 of 3…");
    expect(statusLine({ ...base, sent: [{ ...items[0]!, sentAt: "x" }] })).toBe("All sent");
    expect(statusLine({ ...base, items, paused: "signin" })).toBe("Sign in to send 3 actions waiting");
    expect(statusLine({ ...base, items, paused: "terms" })).toBe("Sign the terms again to send 3 actions waiting");
    expect(statusLine({ ...base, items, paused: "account" })).toBe("Account on hold · 3 actions waiting");
  });
});
