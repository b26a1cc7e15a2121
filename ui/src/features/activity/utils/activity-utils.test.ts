// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { FeedMovement } from "@/features/activity/api/get-recent-activity";
import { dropoffNotes, isHiddenNote } from "@/features/activity/utils/dropoff-notes";
import { correctionSchema, initialDraft, isEditableType, usesTotal } from "@/features/activity/utils/movement-edit";
import { movementSummary, sendDeleteWarning } from "@/features/activity/utils/movement-summary";

const ann = { id: "u1", firstName: "Ann", lastName: "Lee", role: "driver" };
const mv = (over: Partial<FeedMovement>): FeedMovement => ({
  id: "m1",
  type: "dropoff",
  quantity: 4,
  notes: "3 good, 1 dead - Flat tyre",
  createdAt: "2026-01-05T10:00:00Z",
  userId: "u1",
  user: ann,
  ...over,
});

describe("movement edit", () => {
  it("offers Edit only for pickup, dropoff, swaps in and out, adjustment", () => {
    for (const t of ["pickup", "dropoff", "driver_swap_in", "driver_swap_out", "adjustment"]) expect(isEditableType(t)).toBe(true);
    for (const t of ["driver_swap", "charge_start", "charge_complete", "rebalance", "retrieves_repairs_dropoff", "internal_transfer"])
      expect(isEditableType(t)).toBe(false);
  });

  it("asks Total for pickup and adjustment, Good and Dead otherwise", () => {
    expect(usesTotal("pickup")).toBe(true);
    expect(usesTotal("adjustment")).toBe(true);
    expect(usesTotal("dropoff")).toBe(false);
    expect(usesTotal("driver_swap_in")).toBe(false);
  });

  it("fills the form from the counts, the note markers or the quantity", () => {
    expect(initialDraft(mv({ goodBatteries: 2, deadBatteries: 2 }), "x")).toEqual({ good: "2", dead: "2", total: "4", notes: "x" });
    expect(initialDraft(mv({}), "Flat tyre")).toEqual({ good: "3", dead: "1", total: "4", notes: "Flat tyre" });
    expect(initialDraft(mv({ type: "pickup", quantity: -5, notes: "Y" }), "Y")).toEqual({ good: "5", dead: "0", total: "5", notes: "Y" });
  });

  it("reads a blank count as 0 and refuses a correction of 0 batteries or a non-number", () => {
    const fails = (type: string, d: { good: string; dead: string; total: string; notes: string }) =>
      correctionSchema(type).safeParse(d).error?.issues.map((i) => i.message);
    expect(fails("dropoff", { good: "0", dead: "", total: "", notes: "" })).toEqual(["Total batteries must be greater than 0"]);
    expect(fails("pickup", { good: "3", dead: "1", total: "", notes: "" })).toEqual(["Total batteries must be greater than 0"]);
    expect(fails("dropoff", { good: "2", dead: "x", total: "", notes: "" })).toEqual(["Total batteries must be greater than 0"]);
    expect(correctionSchema("dropoff").parse({ good: "2", dead: "", total: "", notes: " n " })).toEqual({
      goodBatteries: 2,
      deadBatteries: 0,
      notes: "n",
    });
    expect(correctionSchema("adjustment").parse({ good: "0", dead: "9", total: "6", notes: "" })).toEqual({
      goodBatteries: 6,
      deadBatteries: 0,
      notes: "",
    });
  });
});

describe("movementSummary", () => {
  it("reads like a sentence", () => {
    expect(movementSummary(mv({}))).toBe("Ann Lee dropped off 4 batteries (3 good, 1 dead)");
    expect(movementSummary(mv({ type: "pickup", quantity: -1, notes: "Y" }))).toBe("Ann Lee picked up 1 battery");
    expect(movementSummary(mv({ type: "rebalance", quantity: 12, notes: "Moves activity logged" }))).toBe("Ann Lee logged 12 moves");
    expect(movementSummary(mv({ type: "adjustment", quantity: -3, notes: "" }))).toBe("Ann Lee adjusted the inventory by -3");
    expect(movementSummary(mv({ type: "pickup", quantity: -5, notes: "MANUAL_ASSIGNMENT: 5 batteries (pickup) assigned to Ann Lee" }))).toBe(
      "5 batteries assigned to Ann Lee",
    );
  });
  it("names the other city of a transfer between cities, without the admin's note", () => {
    expect(movementSummary(mv({ type: "transfer_out", quantity: -2, notes: "Sent 2 packs to Berlin - van 2" }))).toBe("Sent 2 packs to Berlin");
    expect(movementSummary(mv({ type: "transfer_in", quantity: 2, notes: "Received 2 packs from Paris" }))).toBe("Received 2 packs from Paris");
  });
  it("warns before deleting a send only: the other city may have received its packs", () => {
    expect(sendDeleteWarning(mv({ type: "transfer_out", quantity: -2, notes: "Sent 2 packs to Berlin - van 2" }))).toBe(
      "Delete a send only if its packs never left: if Berlin has received them, they would be counted in both cities.",
    );
    expect(sendDeleteWarning(mv({ type: "transfer_out", quantity: -1, notes: "Sent 1 pack to Porto Alegre" }))).toBe(
      "Delete a send only if its packs never left: if Porto Alegre has received them, they would be counted in both cities.",
    );
    expect(sendDeleteWarning(mv({ type: "transfer_out", quantity: -2, notes: "" }))).toBe(
      "Delete a send only if its packs never left: if the other city has received them, they would be counted in both cities.",
    );
    for (const type of ["transfer_in", "dropoff", "pickup", "adjustment"]) {
      expect(sendDeleteWarning(mv({ type, notes: "Sent 2 packs to Berlin" }))).toBe("");
    }
  });
});

describe("dropoff notes", () => {
  it.each([
    ["Transfer: 3 to bay 2", true],
    ["Priority removal: bad cells", true],
    ["Completed charging session early", true],
    ["auto-completed by job", true],
    ["Cleared sessions at close", true],
    ["moved 4 to waiting", true],
    ["Removed 4 from van", false],
    ["All good today", false],
  ])("%s hidden: %s", (text, hidden) => {
    expect(isHiddenNote(text)).toBe(hidden);
  });

  it("keeps dropoffs with a person's note only", () => {
    const list = [
      mv({ id: "a" }),
      mv({ id: "b", notes: "2 good, 0 dead" }),
      mv({ id: "c", type: "pickup", notes: "Y" }),
      mv({ id: "d", notes: "1 good, 0 dead - moved 1 from van" }),
      mv({ id: "e", notes: "" }),
    ];
    expect(dropoffNotes(list).map((n) => [n.movement.id, n.note])).toEqual([["a", "Flat tyre"]]);
  });
});
