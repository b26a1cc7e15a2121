// @vitest-environment node
import { describe, expect, it } from "vitest";
import { overrideSchema } from "@/features/inventory/api/emergency-override";
import { recalculatedSummary } from "@/features/inventory/api/recalculate-inventory";

const first = (v: object) => {
  const r = overrideSchema.safeParse({ ready: "1", waiting: "0", charging: "0", total: "1", ...v });
  return r.success ? null : r.error.issues[0]?.message;
};

describe("overrideSchema (spec part 2 §5)", () => {
  it("requires each count", () => {
    expect(first({})).toBeNull();
    expect(first({ ready: "" })).toBe("Ready count is required");
    expect(first({ waiting: "" })).toBe("Waiting count is required");
    expect(first({ charging: "" })).toBe("Charging count is required");
    expect(first({ total: "" })).toBe("Total count is required");
  });
  it("wants whole numbers, 0 or more, total at least 1", () => {
    expect(first({ ready: "-1" })).toBe("Must be a whole number");
    expect(first({ waiting: "2.5" })).toBe("Must be a whole number");
    expect(first({ total: "0" })).toBe("Must be at least 1");
  });
});

describe("recalculatedSummary", () => {
  it("shows the counts and the corrections", () => {
    expect(
      recalculatedSummary({ after: { ready: 1, waiting: 2, charging: 3, total: 10 }, corrections: ["ready: 0 → 1"] }),
    ).toBe("Ready: 1, Waiting: 2, Charging: 3, Total: 10. Corrections: ready: 0 → 1");
    expect(recalculatedSummary({ corrections: [] })).toBe("No corrections needed");
  });
});
