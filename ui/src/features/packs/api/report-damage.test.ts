import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CLAIMED_KEY, claimedIds, damageAction, damagePhotoAction, rememberClaimed } from "@/features/packs/api/report-damage";
import type { OutboxItem } from "@/features/outbox/api/db";

const item = (kind: string, body: Record<string, unknown>, key: string, blob?: Blob): OutboxItem => ({
  key,
  kind,
  userId: "u1",
  body,
  occurredAt: "2026-11-27T08:00:00.000Z",
  status: "waiting",
  attempts: 0,
  ...(blob ? { blob, bytes: blob.size } : {}),
});

type Call = { url: string; method: string; body: unknown; key: string | null };

function stubFetch(answers: Record<string, unknown>) {
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
      return new Response(JSON.stringify(answers[path] ?? {}), { status: 200, headers: { "Content-Type": "application/json" } });
    }),
  );
  return calls;
}

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

// A damage report and its photos wait in the outbox apart: each photo is claimed under its own
// key, its id kept on the phone; the report names the ids of the keys it carries.
describe("the damage report's outbox actions", () => {
  it("a photo is uploaded in three steps and its id kept under its key", async () => {
    const calls = stubFetch({
      "/api/objects/upload": { uploadURL: "/api/objects/put/abc?sig=1" },
      "/api/photos/upload": { id: "photo1", sha256: "x" },
    });
    await damagePhotoAction.send!(item(damagePhotoAction.kind, { filename: "s.png", notes: "Damage report · SWB-1: swollen", serial: "SWB-1" }, "k-photo", new Blob(["png"], { type: "image/png" })));
    expect(calls.map((c) => `${c.method} ${c.url.split("?")[0]}`)).toEqual(["POST /api/objects/upload", "PUT /api/objects/put/abc", "POST /api/photos/upload"]);
    expect(calls[2]!.key).toBe("k-photo");
    expect(claimedIds(["k-photo"])).toEqual(["photo1"]);
  });

  it("the report names the claimed photos of its keys (a refused one left out), under its own key, then forgets them", async () => {
    rememberClaimed("k1", "p1");
    rememberClaimed("k3", "p3");
    rememberClaimed("other", "p9");
    const calls = stubFetch({ "/api/packs/SWB-000001/damage": { success: true, message: "Damage reported: pack SWB-000001 is quarantined" } });
    const answer = await damageAction.send!(item(damageAction.kind, { serial: "SWB-000001", note: "Swollen", photoKeys: ["k1", "k2", "k3"] }, "k-report"));
    expect(answer).toMatchObject({ success: true });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      url: "/api/packs/SWB-000001/damage",
      method: "POST",
      key: "k-report",
      body: { note: "Swollen", photos: ["p1", "p3"], occurredAt: "2026-11-27T08:00:00.000Z" },
    });
    expect(JSON.parse(localStorage.getItem(CLAIMED_KEY)!)).toEqual({ other: "p9" });
  });

  it("a refused report keeps the ids for Edit & resend", async () => {
    rememberClaimed("k1", "p1");
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify({ message: "No pack has the serial X" }), { status: 404 })));
    await expect(damageAction.send!(item(damageAction.kind, { serial: "X", note: "n", photoKeys: ["k1"] }, "k-r"))).rejects.toThrow();
    expect(claimedIds(["k1"])).toEqual(["p1"]);
  });

  it("labels name the pack and the photos", () => {
    expect(damageAction.label({ serial: "SWB-000001", photoKeys: ["a", "b"] })).toBe("Damage report · SWB-000001 · 2 photos");
    expect(damageAction.label({ serial: "SWB-000001", photoKeys: [] })).toBe("Damage report · SWB-000001");
    expect(damagePhotoAction.label({ serial: "SWB-000001" })).toBe("Damage photo · SWB-000001");
    expect(damageAction.refreshes).toContain("packs");
  });
});
