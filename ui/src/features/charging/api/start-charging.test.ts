// @vitest-environment node
import { describe, expect, it } from "vitest";
import { NO_BATTERIES_TO_CHARGE, startChargingSchema } from "@/features/charging/api/start-charging";

const first = (v: object, waiting = 4) => {
  const r = startChargingSchema(waiting).safeParse({ chargerType: "4A", quantity: "2", ...v });
  return r.success ? null : r.error.issues[0]?.message;
};

describe("startChargingSchema (spec part 2 §5)", () => {
  it("accepts every charger type within the waiting count", () => {
    for (const t of ["2.5A", "4A", "5A"]) expect(first({ chargerType: t })).toBeNull();
    expect(first({ quantity: "4" })).toBeNull();
  });
  it("requires charger type and quantity", () => {
    expect(first({ chargerType: "" })).toBe("Charger type is required");
    expect(first({ chargerType: "3A" })).toBe("Charger type is required");
    expect(first({ quantity: "" })).toBe("Quantity is required");
  });
  it("wants a whole number from 1 to waiting", () => {
    expect(first({ quantity: "0" })).toBe("Quantity must be at least 1");
    expect(first({ quantity: "1.5" })).toBe("Quantity must be a whole number");
    expect(first({ quantity: "5" })).toBe("Only 4 batteries are waiting to charge");
    expect(first({ quantity: "1" }, 0)).toBe(NO_BATTERIES_TO_CHARGE);
  });
});
