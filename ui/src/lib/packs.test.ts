import { describe, expect, it } from "vitest";
import { packTracking, serialsProblem, splitSerials } from "@/lib/packs";

describe("pack serials", () => {
  it("splits typed serials on commas, spaces and lines, upper-cased", () => {
    expect(splitSerials(" swb-000001, SWB-000002\nSWB-000003;;  ")).toEqual(["SWB-000001", "SWB-000002", "SWB-000003"]);
  });
  it("reads the tracking mode, off when unset or unknown", () => {
    expect(packTracking(undefined)).toBe("off");
    expect(packTracking({ pack_tracking: "weird" })).toBe("off");
    expect(packTracking({ pack_tracking: "required" })).toBe("required");
  });
  it("wants one serial per battery when serials are named or required", () => {
    expect(serialsProblem([], 3, "optional")).toBeNull();
    expect(serialsProblem([], 3, "required")).toBe("Name 3 pack serials, one per battery");
    expect(serialsProblem(["A", "B"], 3, "optional")).toBe("Name 3 pack serials, one per battery (2 named)");
    expect(serialsProblem(["A", "A", "B"], 3, "optional")).toBe("The same pack is named twice");
    expect(serialsProblem(["A", "B", "C"], 3, "required")).toBeNull();
  });
});
