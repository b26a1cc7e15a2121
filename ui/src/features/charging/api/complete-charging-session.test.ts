// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { completeChargingSession, energyOf } from "@/features/charging/api/complete-charging-session";

afterEach(() => vi.unstubAllGlobals());

describe("energyOf", () => {
  it("reads a blank field as not given, and a figure in bounds as Wh", () => {
    expect(energyOf("  ")).toBeUndefined();
    expect(energyOf("540")).toBe(540);
    expect(energyOf("512,5")).toBe(512.5);
    expect(energyOf("100000")).toBe(100000);
  });
  it("refuses what the server would (0, negative, too much, not a number)", () => {
    for (const bad of ["0", "-5", "100001", "1e3", "abc", "12 Wh", "NaN", "Infinity"]) expect(energyOf(bad), bad).toBeNaN();
  });
});

describe("completeChargingSession", () => {
  it("sends the energy only when given, beside the packs", async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn((_url: string, init?: RequestInit) => {
        bodies.push(JSON.parse(String(init?.body)));
        return Promise.resolve(new Response("{}", { status: 200, headers: { "Content-Type": "application/json" } }));
      }),
    );
    await completeChargingSession({ id: "s1", idempotencyKey: "k1" });
    await completeChargingSession({ id: "s1", idempotencyKey: "k2", energyWh: 540, packs: ["SWB-000001"] });
    expect(bodies).toEqual([{}, { packs: ["SWB-000001"], energyWh: 540 }]);
  });
});
