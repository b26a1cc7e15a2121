// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { HolderGroup } from "@/features/custody/api/get-battery-holders";
import { type SwapFormValues, parseCount, validateDeadTransfer, validateSwap } from "@/features/custody/utils/swap-validation";

const holders: HolderGroup[] = [
  { user: { id: "dan", firstName: "Dan", lastName: "Driver" }, total: 8, assignments: [] },
  { user: { id: "eve", firstName: "Eve", lastName: "Rider" }, total: 3, assignments: [] },
];
const names = new Map([
  ["dan", "Dan Driver"],
  ["eve", "Eve Rider"],
  ["zed", "Zed Zero"],
]);
const base: SwapFormValues = {
  fromUserId: "dan",
  toUserId: "eve",
  goodBatteries: "2",
  deadBatteries: "1",
  returnGoodBatteries: "",
  returnDeadBatteries: "",
  notes: "",
};
const err = (v: Partial<SwapFormValues>, exchange = false) => {
  const r = validateSwap({ ...base, ...v }, exchange, holders, names);
  return r.ok ? null : r.error;
};

describe("validateSwap (spec part 2 §5)", () => {
  it("accepts a valid swap and reads blank as 0", () => {
    expect(validateSwap({ ...base, deadBatteries: "" }, false, holders, names)).toEqual({
      ok: true,
      value: { good: 2, dead: 0, returnGood: 0, returnDead: 0 },
    });
  });
  it("requires both drivers", () => {
    expect(err({ fromUserId: "" })).toEqual({ field: "fromUserId", message: "From driver is required" });
    expect(err({ toUserId: "" })).toEqual({ field: "toUserId", message: "To driver is required" });
  });
  it("refuses negative or fractional counts", () => {
    expect(err({ goodBatteries: "-1" })).toEqual({ field: "goodBatteries", message: "Must be a valid number 0 or greater" });
    expect(err({ deadBatteries: "1.5" })).toEqual({ field: "deadBatteries", message: "Must be a valid number 0 or greater" });
    expect(err({ returnDeadBatteries: "x" }, true)).toEqual({
      field: "returnDeadBatteries",
      message: "Must be a valid number 0 or greater",
    });
  });
  it("refuses the same driver on both sides", () => {
    expect(err({ toUserId: "dan" })).toEqual({ field: "toUserId", message: "Cannot swap batteries with the same driver" });
  });
  it("needs the giver among the holders", () => {
    expect(err({ fromUserId: "zed" })).toEqual({ field: "fromUserId", message: "From driver not found or has no batteries" });
  });
  it("refuses giving more than the giver holds", () => {
    expect(err({ goodBatteries: "7", deadBatteries: "2" })?.message).toBe("Dan Driver only has 8 batteries, cannot give 9");
  });
  it("needs at least one battery", () => {
    expect(err({ goodBatteries: "0", deadBatteries: "" })?.message).toBe(
      "Must specify at least some good or dead batteries to transfer",
    );
  });
  it("refuses more dead batteries than the receiver holds", () => {
    expect(err({ goodBatteries: "0", deadBatteries: "4" })).toEqual({
      field: "deadBatteries",
      message: "Dead batteries (4) cannot exceed what Eve Rider holds (3)",
    });
    expect(err({ fromUserId: "eve", toUserId: "zed", goodBatteries: "0", deadBatteries: "1" })?.message).toBe(
      "Dead batteries (1) cannot exceed what Zed Zero holds (0)",
    );
  });
  it("checks exchange returns against what the receiver holds after the transfer", () => {
    expect(err({ returnGoodBatteries: "6" }, true)).toBeNull();
    expect(err({ returnGoodBatteries: "6", returnDeadBatteries: "1" }, true)?.message).toBe(
      "Eve Rider only has 6 batteries, cannot give 7",
    );
    // simple mode ignores the return fields
    expect(err({ returnGoodBatteries: "99" }, false)).toBeNull();
  });
});

describe("validateDeadTransfer", () => {
  const v = { fromUserId: "dan", toUserId: "eve", deadBatteries: "2", notes: "" };
  it("accepts a valid transfer", () => expect(validateDeadTransfer(v, holders)).toEqual({ ok: true, dead: 2 }));
  it("needs from, to, different drivers and at least 1 dead", () => {
    const msg = (x: Partial<typeof v>) => {
      const r = validateDeadTransfer({ ...v, ...x }, holders);
      return r.ok ? null : r.error.message;
    };
    expect(msg({ fromUserId: "" })).toBe("From driver is required");
    expect(msg({ toUserId: "" })).toBe("To driver is required");
    expect(msg({ toUserId: "dan" })).toBe("Cannot swap batteries with the same driver");
    expect(msg({ deadBatteries: "0" })).toBe("Dead batteries must be at least 1");
    expect(msg({ deadBatteries: "" })).toBe("Dead batteries must be at least 1");
    expect(msg({ deadBatteries: "9" })).toBe("Dan Driver only has 8 batteries, cannot give 9");
  });
});

describe("parseCount", () => {
  it("reads blank as 0 and refuses non-integers", () => {
    expect(parseCount(" ")).toBe(0);
    expect(parseCount("12")).toBe(12);
    expect(parseCount("-3")).toBeNull();
    expect(parseCount("2e1")).toBeNull();
  });
});
