import { IDBFactory } from "fake-indexeddb";
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defineAction, registerActions, resetActionsForTests } from "@/features/outbox/api/actions";
import { allItems, closeForTests } from "@/features/outbox/api/db";
import { enqueue, flush, getSnapshot, resetForTests, start } from "@/features/outbox/api/outbox";
import { sendQueuedPhoto } from "@/features/outbox/api/photo-upload";

/**
 * fakeServer answers the three photo steps as the server does: a new upload URL per call, and a
 * keyed claim answered once (a repeat of its key with another body is 409 idempotency_key_reused,
 * lib/idempotency). loseNext drops the next claim's answer after it is recorded (a timeout).
 */
function fakeServer() {
  let uploads = 0;
  const kept = new Map<string, { body: string; answer: unknown }>();
  const state = { loseNext: false, claims: 0 };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const key = new Headers(init.headers).get("Idempotency-Key");
      const path = url.split("?")[0]!;
      const json = (status: number, v: unknown) => new Response(JSON.stringify(v), { status, headers: { "Content-Type": "application/json" } });
      if (path === "/api/objects/upload") return json(200, { uploadURL: `/api/objects/uploads/up${++uploads}?exp=1&sig=x` });
      if (init.method === "PUT") return json(200, { id: path, sha256: "s" });
      if (path === "/api/photos/upload") {
        const { occurredAt: _t, ...rest } = JSON.parse(String(init.body)) as Record<string, unknown>;
        const body = JSON.stringify(rest);
        const prev = key ? kept.get(key) : undefined;
        if (prev && prev.body !== body)
          return json(409, { status: 409, message: "This Idempotency-Key was already used for a different request.", data: {}, code: "idempotency_key_reused" });
        if (prev) return json(200, prev.answer);
        state.claims++;
        const answer = { id: `photo-${String(rest.url).split("/").pop()}`, sha256: "s" };
        if (key) kept.set(key, { body, answer });
        if (state.loseNext) {
          state.loseNext = false;
          throw new TypeError("Failed to fetch");
        }
        return json(200, answer);
      }
      return json(404, { status: 404, message: "Not found", data: {} });
    }),
  );
  return state;
}

async function settle() {
  for (let i = 0; i < 200; i++) await new Promise((r) => setTimeout(r, 0));
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  closeForTests();
  resetForTests();
  resetActionsForTests();
  registerActions(defineAction({ kind: "photo", send: sendQueuedPhoto, label: () => "photo", refreshes: [] }));
  vi.spyOn(navigator, "onLine", "get").mockReturnValue(true);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  resetForTests();
});

describe("a queued photo resent after its claim's answer was lost", () => {
  it("claims the same upload again under its key: the server's first answer, not a 409", async () => {
    const server = fakeServer();
    server.loseNext = true;
    start("u1");
    await settle();
    await enqueue("photo", { filename: "a.png", notes: "" }, { blob: new Blob(["png"], { type: "image/png" }) });
    await settle();
    // the claim was recorded but its answer lost: the item waits
    expect((await allItems()).map((x) => x.status)).toEqual(["waiting"]);
    await flush();
    await settle();
    expect(await allItems()).toEqual([]);
    expect(getSnapshot().sent.map((x) => x.kind)).toEqual(["photo"]);
    expect(server.claims).toBe(1);
  });
});
