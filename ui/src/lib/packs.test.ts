import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api-client";
import { afterListChange, listError, namedSerial, packRefusal, packsBody, packsProblem, packTracking, rowErrors, splitSerials } from "@/lib/packs";

/** refusal builds the server's answer as apierr.NewCode writes it: message, code, data naming the field. */
function refusal(status: number, code: string, field: string, message: string) {
  return new ApiError(status, JSON.stringify({ status, message, code, data: field ? { [field]: { code: "validation_invalid", message } } : {} }));
}

describe("pack serials", () => {
  it("splits typed serials on commas, spaces and lines, upper-cased", () => {
    expect(splitSerials(" swb-000001, SWB-000002\nSWB-000003;;  ")).toEqual(["SWB-000001", "SWB-000002", "SWB-000003"]);
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

describe("a refusal names the pack", () => {
  const lists = { goodPacks: ["SWB-000001", "SWB-000002"], deadPacks: ["SWB-000009"] };
  it("places an unknown pack on its row in the list the field names", () => {
    const r = packRefusal(refusal(400, "pack_unknown", "deadPacks", "Unknown pack: SWB-000009"), lists);
    expect(r).toEqual({ field: "deadPacks", serial: "SWB-000009", message: "Unknown pack: SWB-000009" });
    expect(rowErrors(r, "deadPacks")).toEqual({ "SWB-000009": "Unknown pack: SWB-000009" });
    expect(rowErrors(r, "goodPacks")).toBeUndefined();
    expect(listError(r, "deadPacks")).toBeUndefined();
  });
  it("places a quarantined or retired pack (409) the same way; without a field, the list that holds it", () => {
    expect(packRefusal(refusal(409, "pack_quarantined", "goodPacks", "Pack SWB-000002 is quarantined and cannot be handed out"), lists)?.serial).toBe("SWB-000002");
    expect(packRefusal(refusal(409, "pack_retired", "", "Pack swb-000009 is retired and cannot be handed out"), lists)).toEqual({
      field: "deadPacks",
      serial: "SWB-000009",
      message: "Pack swb-000009 is retired and cannot be handed out",
    });
  });
  it("a count names no pack: it belongs to the list, under it", () => {
    const r = packRefusal(refusal(400, "pack_count", "goodPacks", "Name exactly 3 packs for 3 batteries (2 named)"), lists);
    expect(r).toEqual({ field: "goodPacks", serial: null, message: "Name exactly 3 packs for 3 batteries (2 named)" });
    expect(listError(r, "goodPacks")).toBe("Name exactly 3 packs for 3 batteries (2 named)");
    expect(rowErrors(r, "goodPacks")).toBeUndefined();
  });
  it("is not a pack refusal: another code, or not an answer", () => {
    expect(packRefusal(refusal(409, "not_enough_ready", "", "Only 2 batteries available"), lists)).toBeNull();
    expect(packRefusal(new Error("offline"), lists)).toBeNull();
  });
  it("goes once its pack leaves the list; stays while it is listed or another list changes", () => {
    const r = { field: "goodPacks", serial: "SWB-000002", message: "Unknown pack: SWB-000002" };
    expect(afterListChange(r, "goodPacks", ["SWB-000001", "SWB-000002", "SWB-000003"])).toBe(r);
    expect(afterListChange(r, "deadPacks", [])).toBe(r);
    expect(afterListChange(r, "goodPacks", ["SWB-000001"])).toBeNull();
    expect(afterListChange({ field: "packs", serial: null, message: "Name exactly 2 packs for 2 batteries (1 named)" }, "packs", ["A", "B"])).toBeNull();
  });
  it("matches a serial as a whole word only", () => {
    expect(namedSerial("Unknown pack: SWB-0000011", ["SWB-000001"])).toBeNull();
    expect(namedSerial("Unknown pack: SWB-000001", ["swb-000001"])).toBe("swb-000001");
  });
});
