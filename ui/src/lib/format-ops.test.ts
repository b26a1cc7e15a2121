// @vitest-environment node
import { describe, expect, it } from "vitest";
import { assignmentTypeLabel, cleanMovementNotes, movementTypeLabel, movementNotes, noteCounts } from "@/lib/format-ops";

describe("labels", () => {
  it.each([
    ["pickup", "Pickup"],
    ["home_charger", "Home Charger"],
    ["moving", "Moving"],
    ["in_transit", "In Transit"],
    ["maintenance", "Maintenance"],
    ["delivery", "Delivery"],
    ["pickup_point", "Pickup Point"],
    ["warehouse", "Warehouse"],
    ["spaceship", "Assignment"],
    ["", "Assignment"],
  ])("assignment type %s is %s", (type, label) => {
    expect(assignmentTypeLabel(type)).toBe(label);
  });

  it("names movement types", () => {
    expect(movementTypeLabel("retrieves_repairs_dropoff")).toBe("Recovers");
    expect(movementTypeLabel("rebalance")).toBe("Moves");
    expect(movementTypeLabel("driver_swap_out")).toBe("Swap Out");
    expect(movementTypeLabel("checkpoint")).toBe("Checkpoint");
    expect(movementTypeLabel(undefined)).toBe("Movement");
  });
});

describe("movement notes", () => {
  it.each([
    ["3 good, 1 dead - Flat tyre on 2", "Flat tyre on 2"],
    ["3 good, 1 dead", ""],
    ["0 good, 4 dead - all dead", "all dead"],
    ["2 dead - wet", "wet"],
    ["DRIVER_SWAP: 2 good, 1 dead From: Ann Lee To: Bob Ray", "From Ann Lee to Bob Ray"],
    ["DRIVER_SWAP: 2 good, 0 dead From: Ann Lee To: Bob Ray - shift change", "From Ann Lee to Bob Ray: shift change"],
    ["MANUAL_ASSIGNMENT: 5 batteries (home_charger) assigned to Cy Doe", "Assigned to Cy Doe"],
    ["MANUAL_ASSIGNMENT: 5 batteries (pickup) assigned to Cy Doe - for tonight", "Assigned to Cy Doe: for tonight"],
    ["  Y  ", "Y"],
    ["Started charging 4 batteries on 5A charger", "Started charging 4 batteries on 5A charger"],
    ["", ""],
  ])("%j reads %j", (raw, clean) => {
    expect(cleanMovementNotes(raw)).toBe(clean);
  });

  it("keeps a user's text that merely mentions good batteries", () => {
    expect(cleanMovementNotes("Y, 3 good ones in the van")).toBe("Y, 3 good ones in the van");
  });

  it("reads the good and dead counts", () => {
    expect(noteCounts("3 good, 1 dead - x")).toEqual({ good: 3, dead: 1 });
    expect(noteCounts("DRIVER_SWAP: 0 good, 2 dead From: A To: B")).toEqual({ good: 0, dead: 2 });
    expect(noteCounts("4 dead")).toEqual({ good: 0, dead: 4 });
    expect(noteCounts("no markers")).toBeNull();
  });
});

describe("movementNotes", () => {
  const ann = { firstName: "Ann", lastName: "Lee" };
  const bo = { firstName: "Bo", lastName: "Kim" };
  it("reads a movement's structured meta, not its markers", () => {
    expect(movementNotes({ type: "driver_swap_out", notes: "DRIVER_SWAP: 1 good From: X To: Y - ok", meta: { userNotes: "ok", from: ann, to: bo } })).toBe(
      "From Ann Lee to Bo Kim: ok",
    );
    expect(movementNotes({ type: "pickup", notes: "MANUAL_ASSIGNMENT: …", meta: { userNotes: "", assignmentType: "home_charger" }, user: bo })).toBe(
      "Assigned to Bo Kim",
    );
    expect(movementNotes({ type: "dropoff", notes: "3 good, 1 dead - quiet", meta: { userNotes: "quiet" } })).toBe("quiet");
  });
  it("falls back to the stored notes without meta", () => {
    expect(movementNotes({ type: "dropoff", notes: "3 good, 1 dead - quiet" })).toBe("quiet");
  });
});
