// @vitest-environment node
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api-client";
import { acceptedOf, afterListChange, followedCount, listError, packRefusal, packsBody, packsProblem, packTracking, rowErrors, splitSerials } from "@/lib/packs";

/** refusal builds the server's answer as apierr.Response writes it: message, code, data naming the field and the packs. */
function refusal(status: number, code: string, field: string, message: string, packs?: { serial: string; code: string; message: string }[]) {
  const data: Record<string, unknown> = field ? { [field]: { code: "validation_invalid", message } } : {};
  if (packs) data.packs = packs;
  return new ApiError(status, JSON.stringify({ status, message, code, data }));
}

describe("pack serials", () => {
  it("splits typed serials on commas, spaces and lines, upper-cased", () => {
    expect(splitSerials(" swb-000001, SWB-000002\nhttps://bay.example/p/swb-000003;;  ")).toEqual(["SWB-000001", "SWB-000002", "SWB-000003"]);
  });
  it("reads the tracking mode, off when unset or unknown", () => {
    expect(packTracking(undefined)).toBe("off");
    expect(packTracking({ pack_tracking: "weird" })).toBe("off");
    expect(packTracking({ pack_tracking: "required" })).toBe("required");
  });
  it("checks what the server checks, in its words: at most one pack per battery, exactly in required mode", () => {
    expect(packsProblem([], 3, "optional")).toBeNull();
    expect(packsProblem(["A", "B"], 3, "optional")).toBeNull();
    expect(packsProblem(["A", "B", "C", "D"], 3, "optional")).toBe("Name at most 3 packs for 3 batteries (4 named)");
    expect(packsProblem([], 3, "required")).toBe("Name exactly 3 packs for 3 batteries (0 named)");
    expect(packsProblem(["A", "B"], 1, "optional")).toBe("Name at most 1 pack for 1 battery (2 named)");
    expect(packsProblem(["A", "B", "C"], 3, "required")).toBeNull();
    expect(packsProblem(["A", "A"], 2, "optional")).toBe("Pack A is named twice");
    expect(packsProblem(["A", "B", "C", "D"], 1, "off")).toBeNull();
  });
  it("adds the lists that name packs to a body, nothing when tracking is off", () => {
    expect(packsBody("optional", { goodPacks: ["A"], deadPacks: [] })).toEqual({ goodPacks: ["A"] });
    expect(packsBody("required", { packs: ["A", "B"] })).toEqual({ packs: ["A", "B"] });
    expect(packsBody("off", { packs: ["A"] })).toEqual({});
  });
});

describe("a refusal names its packs as data", () => {
  const lists = { goodPacks: ["SWB-000001", "SWB-000002"], deadPacks: ["SWB-000009"] };
  it("places an unknown pack on its row from data.packs", () => {
    const r = packRefusal(refusal(400, "pack_unknown", "deadPacks", "Unknown pack: SWB-000009", [{ serial: "SWB-000009", code: "pack_unknown", message: "Unknown pack: SWB-000009" }]), lists);
    expect(r).toEqual({ field: "deadPacks", serials: { "SWB-000009": "Unknown pack: SWB-000009" }, message: "Unknown pack: SWB-000009" });
    expect(rowErrors(r, lists.deadPacks)).toEqual({ "SWB-000009": "Unknown pack: SWB-000009" });
    expect(rowErrors(r, lists.goodPacks)).toBeUndefined();
    expect(listError(r, "deadPacks")).toBeUndefined();
  });
  it("marks every refused pack with its own reason, in whichever list holds it, and never reads the message", () => {
    const r = packRefusal(
      refusal(409, "pack_quarantined", "", "2 packs are out of use and can only go to quarantine: SWB-000002, SWB-000009", [
        { serial: "SWB-000002", code: "pack_quarantined", message: "Pack SWB-000002 is quarantined and cannot be handed out" },
        { serial: "swb-000009", code: "pack_retired", message: "Pack SWB-000009 is retired and cannot be handed out" },
      ]),
      lists,
    );
    expect(rowErrors(r, lists.goodPacks)).toEqual({ "SWB-000002": "Pack SWB-000002 is quarantined and cannot be handed out" });
    expect(rowErrors(r, lists.deadPacks)).toEqual({ "SWB-000009": "Pack SWB-000009 is retired and cannot be handed out" });
    // a message naming a pack, without data.packs, marks no row
    const bare = packRefusal(refusal(409, "pack_quarantined", "goodPacks", "Pack SWB-000001 is quarantined and cannot be handed out"), lists);
    expect(rowErrors(bare, lists.goodPacks)).toBeUndefined();
    expect(listError(bare, "goodPacks")).toBe("Pack SWB-000001 is quarantined and cannot be handed out");
  });
  it("places a worn pack refused at hand-out on its row, with its reason (issue 46)", () => {
    const why = "Pack SWB-000002 is worn and cannot be handed out: State of health 72% is under the model's 80%";
    const r = packRefusal(refusal(409, "pack_worn", "goodPacks", why, [{ serial: "SWB-000002", code: "pack_worn", message: why }]), lists);
    expect(r).toEqual({ field: "goodPacks", serials: { "SWB-000002": why }, message: why });
    expect(rowErrors(r, lists.goodPacks)).toEqual({ "SWB-000002": why });
    expect(rowErrors(r, lists.deadPacks)).toBeUndefined();
  });
  it("a count names no pack: it belongs to the list, under it", () => {
    const r = packRefusal(refusal(400, "pack_count", "goodPacks", "Name exactly 3 packs for 3 batteries (2 named)"), lists);
    expect(r).toEqual({ field: "goodPacks", serials: {}, message: "Name exactly 3 packs for 3 batteries (2 named)" });
    expect(listError(r, "goodPacks")).toBe("Name exactly 3 packs for 3 batteries (2 named)");
    expect(rowErrors(r, lists.goodPacks)).toBeUndefined();
  });
  it("is not a pack refusal: another code, or not an answer", () => {
    expect(packRefusal(refusal(409, "not_enough_ready", "", "Only 2 batteries available"), lists)).toBeNull();
    expect(packRefusal(new Error("offline"), lists)).toBeNull();
  });
  it("goes once its packs leave the lists; stays while one is listed or for another list's count", () => {
    const r = { field: "goodPacks", serials: { "SWB-000002": "Unknown pack: SWB-000002" }, message: "Unknown pack: SWB-000002" };
    expect(afterListChange(r, "goodPacks", ["SWB-000001", "SWB-000002", "SWB-000003"], lists)).toBe(r);
    expect(afterListChange(r, "deadPacks", [], lists)).toBe(r);
    expect(afterListChange(r, "goodPacks", ["SWB-000001"], lists)).toBeNull();
    const count = { field: "packs", serials: {}, message: "Name exactly 2 packs for 2 batteries (1 named)" };
    expect(afterListChange(count, "packs", ["A", "B"], { packs: ["A"] })).toBeNull();
    expect(afterListChange(count, "other", ["A"], { packs: ["A"] })).toBe(count);
  });
});

describe("the count follows the scans (issue 42 item 6)", () => {
  it("optional mode: a blank count or one that followed the scans follows them; one typed above stays until passed", () => {
    expect(followedCount("", 0, 2)).toBe("2"); // scanned 2: the quantity is 2
    expect(followedCount("2", 2, 3)).toBe("3");
    expect(followedCount("3", 3, 2)).toBe("2"); // a pack removed
    expect(followedCount("5", 2, 3)).toBeNull(); // typed 5: "3 of 5 scanned"
    expect(followedCount("5", 5, 6)).toBe("6");
    expect(followedCount("4", 3, 5)).toBe("5"); // never fewer batteries than packs
    expect(followedCount("1", 1, 0)).toBe("");
    expect(followedCount("3", 2, 2)).toBeNull();
  });
  it("a refused pack is listed but not sent", () => {
    expect(acceptedOf(["A", "B", "C"], { B: "Pack B is quarantined and cannot be handed out" })).toEqual(["A", "C"]);
    const list = ["A"];
    expect(acceptedOf(list, {})).toBe(list);
  });
});
