// @vitest-environment node
import { describe, expect, it } from "vitest";
import { packsWord, quarantinedOnArrival } from "@/features/transfers/utils/paths";

describe("quarantinedOnArrival", () => {
  it("names the packs a recall of this city quarantined on arrival", () => {
    const states = { "PAR-000001": "quarantined", "PAR-000002": "in_service", "PAR-000003": "quarantined" };
    expect(quarantinedOnArrival({ serials: ["PAR-000001", "PAR-000002"], states })).toBe(
      "PAR-000001 is quarantined: this city has recalled its lot, model or manufacturer.",
    );
    expect(quarantinedOnArrival({ serials: ["PAR-000001", "PAR-000002", "PAR-000003"], states })).toBe(
      "2 packs are quarantined: this city has recalled their lot, model or manufacturer.",
    );
  });

  it("says nothing when every pack arrived in service, or the states are not known", () => {
    expect(quarantinedOnArrival({ serials: ["PAR-000002"], states: { "PAR-000002": "in_service" } })).toBe("");
    expect(quarantinedOnArrival({ serials: ["PAR-000002"] })).toBe("");
  });

  it("counts packs in words", () => {
    expect(packsWord(1)).toBe("1 pack");
    expect(packsWord(3)).toBe("3 packs");
  });
});
