import { afterEach, describe, expect, it } from "vitest";
import { MAX_SCANNED, addSerial, countText, holdList, loadList, removeSerial, rowView, saveList } from "@/features/scan/utils/scan-list";

afterEach(() => sessionStorage.clear());

describe("the scanned list", () => {
  it("adds in scan order and ignores a duplicate", () => {
    let r = addSerial([], "SWB-000001");
    r = addSerial(r.list, "SWB-000003");
    expect(r).toEqual({ list: ["SWB-000001", "SWB-000003"], added: true });
    expect(addSerial(r.list, "SWB-000001")).toEqual({ list: ["SWB-000001", "SWB-000003"], added: false, reason: "duplicate" });
  });

  it("stops at the lookup's limit", () => {
    const full = Array.from({ length: MAX_SCANNED }, (_, i) => `P-${i}`);
    expect(addSerial(full, "P-X")).toMatchObject({ added: false, reason: "full" });
  });

  it("removes one serial", () => {
    expect(removeSerial(["A-1", "B-2", "C-3"], "B-2")).toEqual(["A-1", "C-3"]);
  });

  it("keeps a list by field id until it is cleared", () => {
    saveList("pickup.packs", ["SWB-000001", "SWB-000002"]);
    saveList("dropoff.deadPacks", ["SWB-000009"]);
    expect(loadList("pickup.packs")).toEqual(["SWB-000001", "SWB-000002"]);
    expect(loadList("dropoff.deadPacks")).toEqual(["SWB-000009"]);
    saveList("pickup.packs", []);
    expect(loadList("pickup.packs")).toEqual([]);
    expect(sessionStorage.getItem("swapbay.scan.list.pickup.packs")).toBeNull();
    expect(loadList("dropoff.deadPacks")).toEqual(["SWB-000009"]);
  });

  it("restores nothing from a damaged entry", () => {
    sessionStorage.setItem("swapbay.scan.list.x", "{not json");
    expect(loadList("x")).toEqual([]);
    sessionStorage.setItem("swapbay.scan.list.y", JSON.stringify(["A-1", 7, null, "B-2"]));
    expect(loadList("y")).toEqual(["A-1", "B-2"]);
  });
});

describe("rowView", () => {
  const known = (state: string) => ({ status: "known" as const, model: "S-48V 15Ah", state });

  it("shows a known pack's model and state", () => {
    expect(rowView(known("in_service"), "handout")).toEqual({ detail: "In service", problem: false, model: "S-48V 15Ah", state: "in_service" });
  });

  it("shows an unknown serial red with why", () => {
    expect(rowView({ status: "unknown" }, "any")).toEqual({ detail: "Unknown pack — not in the registry", problem: true });
  });

  it("shows a pack the scan's judgement refuses red with the server's reason; a stale list's out-of-use pack red by its state", () => {
    const refused = { refused: true as const, code: "pack_quarantined", message: "Pack SWB-000002 is quarantined and cannot be handed out" };
    expect(rowView(known("quarantined"), "handout", undefined, refused)).toEqual({
      detail: "Pack SWB-000002 is quarantined and cannot be handed out",
      problem: true,
      model: "S-48V 15Ah",
      state: "quarantined",
    });
    expect(rowView({ status: "offline" }, "handout", undefined, refused)).toMatchObject({ detail: refused.message, problem: true });
    expect(rowView(known("retired"), "handout", undefined, { ok: true })).toMatchObject({ detail: "Retired", problem: true });
    expect(rowView(known("quarantined"), "return")).toMatchObject({ detail: "Quarantined", problem: false });
  });

  it("offline, a handout says it was judged by the last synced list; a queued action's pack is noted", () => {
    expect(rowView({ status: "offline" }, "handout", undefined, { ok: true })).toEqual({ detail: "In use by the last synced list (offline)", problem: false });
    expect(rowView({ status: "offline" }, "handout", undefined, { ok: true, note: "Already in a queued action: Pickup · 2 batteries · 2 packs" })).toEqual({
      detail: "In use by the last synced list (offline) · Already in a queued action: Pickup · 2 batteries · 2 packs",
      problem: false,
    });
  });

  it("says a serial could not be checked offline, and puts a server refusal first", () => {
    expect(rowView({ status: "offline" }, "any")).toEqual({ detail: "Not checked (offline)", problem: false });
    expect(rowView({ status: "checking" }, "any")).toEqual({ detail: "Checking…", problem: false });
    expect(rowView(known("in_service"), "handout", "Pack SWB-000001 is quarantined")).toMatchObject({
      detail: "Pack SWB-000001 is quarantined",
      problem: true,
      model: "S-48V 15Ah",
    });
  });

  it("counts against the typed count", () => {
    expect(countText(2, 3)).toBe("2 of 3 scanned");
    expect(countText(2)).toBe("2 scanned");
    expect(countText(0, 0)).toBe("0 scanned");
  });
});

describe("holdList", () => {
  it("forgets a list after its field unmounts, unless a field with the same id mounts first", async () => {
    saveList("a", ["A-1"]);
    holdList("a")(); // unmounted
    holdList("a"); // mounted again in the same commit
    await new Promise((r) => setTimeout(r, 5));
    expect(loadList("a")).toEqual(["A-1"]);
    holdList("a")(); // unmounted for good
    await new Promise((r) => setTimeout(r, 5));
    expect(loadList("a")).toEqual([]);
  });
});
