import { describe, expect, it } from "vitest";
import {
  assignmentTypeLabel,
  cleanMovementNotes,
  formatActivityDateTime,
  formatEta,
  formatRelativeTime,
  isReadyNow,
  movementTypeLabel,
  movementNotes,
  noteCounts,
} from "@/lib/format-ops";

const now = new Date(2026, 0, 5, 15, 30, 20); // Jan 5 2026 15:30:20 local
const ago = (ms: number) => new Date(now.getTime() - ms);

describe("formatRelativeTime", () => {
  it.each([
    [0, "Just now"],
    [59_999, "Just now"],
    [60_000, "1 min ago"],
    [2 * 60_000 + 5, "2 mins ago"],
    [59 * 60_000, "59 mins ago"],
    [60 * 60_000, "1 hour ago"],
    [5 * 3_600_000 + 1, "5 hours ago"],
    [23 * 3_600_000 + 59 * 60_000, "23 hours ago"],
    [24 * 3_600_000, "1 day ago"],
    [3 * 86_400_000, "3 days ago"],
    [400 * 86_400_000, "400 days ago"],
  ])("%i ms ago reads %s", (ms, text) => {
    expect(formatRelativeTime(ago(ms), now)).toBe(text);
  });

  it("treats a time slightly in the future as just now", () => {
    expect(formatRelativeTime(new Date(now.getTime() + 30_000), now)).toBe("Just now");
  });

  it("reads server strings and gives '' for garbage", () => {
    expect(formatRelativeTime(ago(3 * 60_000).toISOString(), now)).toBe("3 mins ago");
    expect(formatRelativeTime("not a date", now)).toBe("");
    expect(formatRelativeTime(null, now)).toBe("");
  });
});

describe("formatEta", () => {
  it("says ready now when the ETA has passed", () => {
    expect(formatEta(4, ago(3_600_000), now)).toBe("4 ready now");
  });
  it("says ready now within the current minute, even seconds ahead", () => {
    expect(formatEta(2, new Date(2026, 0, 5, 15, 30, 59), now)).toBe("2 ready now");
    expect(isReadyNow(new Date(2026, 0, 5, 15, 31, 0), now)).toBe(false);
  });
  it("gives the 12-hour time otherwise", () => {
    expect(formatEta(3, new Date(2026, 0, 5, 15, 31, 0), now)).toBe("3 ready at 3:31 PM");
    expect(formatEta(1, new Date(2026, 0, 6, 9, 5), now)).toBe("1 ready at 9:05 AM");
  });
  it("gives '' without an ETA", () => {
    expect(formatEta(3, "", now)).toBe("");
  });
});

describe("formatActivityDateTime", () => {
  it("uses MMM d, h:mm a", () => {
    expect(formatActivityDateTime(new Date(2026, 0, 5, 15, 5))).toBe("Jan 5, 3:05 PM");
    expect(formatActivityDateTime(new Date(2026, 10, 21, 0, 7))).toBe("Nov 21, 12:07 AM");
    expect(formatActivityDateTime(undefined)).toBe("");
  });
});

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
