// @vitest-environment node
import { describe, expect, it } from "vitest";
import { assignmentSchema } from "@/features/custody/api/assign-batteries";

const ok = { userId: "u1", quantity: "3", assignmentType: "storage", notes: "" };
const first = (v: object, ready = 5) => {
  const r = assignmentSchema(ready).safeParse({ ...ok, ...v });
  return r.success ? null : r.error.issues[0]?.message;
};

describe("assignmentSchema (spec part 2 §5)", () => {
  it("accepts a valid assignment, storage/repair/other included", () => {
    expect(first({})).toBeNull();
    expect(first({ assignmentType: "repair" })).toBeNull();
  });
  it("requires driver, quantity and type", () => {
    expect(first({ userId: "" })).toBe("Driver is required");
    expect(first({ quantity: "" })).toBe("Quantity is required");
    expect(first({ assignmentType: "" })).toBe("Assignment type is required");
  });
  it("caps the quantity at the ready count", () => {
    expect(first({ quantity: "6" })).toBe("Only 5 batteries available");
    expect(first({ quantity: "5" })).toBeNull();
    expect(first({ quantity: "1" }, 0)).toBe("Only 0 batteries available");
  });
});
