// @vitest-environment node
import { describe, expect, it } from "vitest";
import { dropoffSchema } from "@/features/driver-ops/api/record-dropoff";
import { pickupSchema } from "@/features/driver-ops/api/record-pickup";

function issues(r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return r.success ? [] : r.error!.issues.map((i) => [i.path.join("."), i.message]);
}

describe("dropoffSchema", () => {
  it("accepts good and dead counts with notes; empty counts as 0", () => {
    expect(dropoffSchema.safeParse({ goodBatteries: "3", deadBatteries: "", notes: "ok" }).success).toBe(true);
    expect(dropoffSchema.parse({ goodBatteries: " 4 ", deadBatteries: "", notes: "ok" })).toEqual({ goodBatteries: 4, deadBatteries: 0, notes: "ok" });
  });
  it("refuses non-numbers and negatives", () => {
    expect(issues(dropoffSchema.safeParse({ goodBatteries: "-1", deadBatteries: "x", notes: "ok" }))).toEqual([
      ["goodBatteries", "Must be a valid number 0 or greater"],
      ["deadBatteries", "Must be a valid number 0 or greater"],
    ]);
    expect(issues(dropoffSchema.safeParse({ goodBatteries: "1.5", deadBatteries: "", notes: "ok" }))).toEqual([
      ["goodBatteries", "Must be a valid number 0 or greater"],
    ]);
  });
  it("needs at least one battery, on the good field", () => {
    expect(issues(dropoffSchema.safeParse({ goodBatteries: "0", deadBatteries: "", notes: "ok" }))).toEqual([
      ["goodBatteries", "You must drop off at least one battery (good or dead)"],
    ]);
  });
  it("needs notes", () => {
    expect(issues(dropoffSchema.safeParse({ goodBatteries: "1", deadBatteries: "0", notes: "   " }))).toEqual([
      ["notes", "Please provide notes about your drop-off"],
    ]);
  });
});

describe("pickupSchema", () => {
  it("needs a quantity of at least 1 and the answer", () => {
    expect(pickupSchema.safeParse({ quantity: "2", notes: "Y" }).success).toBe(true);
    expect(issues(pickupSchema.safeParse({ quantity: "", notes: "" }))).toEqual([
      ["quantity", "Quantity is required"],
      ["notes", "This field is required"],
    ]);
    expect(issues(pickupSchema.safeParse({ quantity: "0", notes: "N" }))).toEqual([["quantity", "Quantity is required"]]);
  });
});
