import { describe, expect, it } from "vitest";
import { eventRecallId, type PackEvent } from "@/features/packs/api/get-pack";
import { mustComeBack } from "@/features/packs/api/get-packs";
import { registryValues } from "@/features/packs/api/recall-packs";
import { decisionsFor } from "@/features/packs/components/pack-decisions";
import { eventText } from "@/features/packs/components/pack-page";
import { bringBackText } from "@/features/packs/components/pack-safety";
import { backInBay, recallTitle, standingWords } from "@/features/packs/components/recall-page";

const event = (p: Partial<PackEvent>): PackEvent => ({ id: "e1", kind: "state", at: "", actor: null, from: null, to: null, expected: null, movement: null, ...p });

describe("pack safety on the screens", () => {
  it("offers the decisions a state allows: a quarantined pack goes to maintenance, back or retired; one in service may be declared lost", () => {
    expect(decisionsFor("quarantined").map((d) => d.to)).toEqual(["maintenance", "in_service", "retired"]);
    expect(decisionsFor("maintenance").map((d) => d.to)).toEqual(["in_service", "retired", "lost"]);
    expect(decisionsFor("in_service").map((d) => d.label)).toEqual(["Declare lost"]);
    for (const s of ["retired", "recycled", "lost", "unknown"]) expect(decisionsFor(s)).toEqual([]);
  });
  it("asks a holder for a recalled or quarantined pack back", () => {
    expect(mustComeBack({ state: "in_service" })).toBe(false);
    expect(mustComeBack({ state: "quarantined" })).toBe(true);
    expect(bringBackText({ state: "quarantined", recall: { id: "r1", reason: "Lot overheats" } })).toBe("Recalled — bring it to the bay");
    expect(bringBackText({ state: "quarantined" })).toBe("Quarantined — bring it to the bay");
  });
  it("reads a damage report and a recall's state change in the history", () => {
    expect(eventText(event({ kind: "damage", reason: "Swollen" }))).toBe("Damage reported");
    expect(eventRecallId(event({ recall: "r1" }))).toBe("r1");
    expect(eventRecallId(event({ recall: { id: "r2" } }))).toBe("r2");
    expect(eventRecallId(event({}))).toBe("");
  });
  it("names a recall and its progress", () => {
    expect(recallTitle({ by: "lot", value: "L-07" })).toBe("Lot L-07");
    expect(backInBay(3, 24)).toBe("3 of 24 back in the bay");
    // a recall that matched no pack here (head office's, sent to every city) stands for those that come
    expect(standingWords({ by: "lot", value: "L2025-09B" })).toBe(
      "No pack here has lot L2025-09B yet. The recall stands: a pack of it that is received from another city, minted or imported here is quarantined.",
    );
  });
  it("suggests the registry's values, most common first", () => {
    const p = (lot: string, model: string, manufacturer = "") => ({ lot, model, manufacturer });
    expect(registryValues([p("B", "Nova"), p("A", "Nova"), p("B", "Vega", "Voltcell"), p("", "Nova")])).toEqual({
      lot: ["B", "A"],
      model: ["Nova", "Vega"],
      manufacturer: ["Voltcell"],
    });
  });
});
