// @vitest-environment node
import { describe, expect, it } from "vitest";
import { dropoffAction } from "@/features/driver-ops/api/record-dropoff";
import { pickupAction } from "@/features/driver-ops/api/record-pickup";
import { editedBody, packsLabel, serials } from "@/features/outbox/api/actions";

// A queued action carries its packs (DESIGN.md §14): the queue names how many, and Edit &
// resend keeps them, minus the ones the driver removed (the refused one, say).
describe("queued actions and their packs", () => {
  it("the queue's label counts the packs an item names", () => {
    expect(pickupAction.label({ quantity: 3, notes: "Y", packs: ["A", "B", "C"] })).toBe("Pickup · 3 batteries · 3 packs");
    expect(pickupAction.label({ quantity: 2, notes: "Y" })).toBe("Pickup · 2 batteries");
    expect(dropoffAction.label({ goodBatteries: 1, deadBatteries: 1, goodPacks: ["A"] })).toBe("Dropoff · 1 good, 1 dead · 1 pack");
    expect(packsLabel({ goodPacks: ["A"], deadPacks: ["B", 7] }, ["goodPacks", "deadPacks"])).toBe(" · 2 packs");
  });
  it("declares the pack lists Edit & resend offers", () => {
    expect(pickupAction.packs).toEqual([["packs", "Packs"]]);
    expect(dropoffAction.packs?.map(([f]) => f)).toEqual(["goodPacks", "deadPacks"]);
  });
  it("Edit & resend: numbers typed replace, blanks keep, packs removed leave their list, an emptied list goes", () => {
    const body = { quantity: 3, notes: "Y", packs: ["A", "NOPE-1", "C"], occurredAt: "2026-11-27T10:00:00Z" };
    expect(editedBody(body, { quantity: "2" }, { packs: ["NOPE-1"] })).toEqual({ quantity: 2, notes: "Y", packs: ["A", "C"], occurredAt: "2026-11-27T10:00:00Z" });
    expect(editedBody(body, { quantity: " " })).toEqual(body);
    expect(editedBody({ goodBatteries: 1, goodPacks: ["X"] }, {}, { goodPacks: ["X"] })).toEqual({ goodBatteries: 1 });
    expect(serials(["A", 1, null, "B"])).toEqual(["A", "B"]);
  });
});
