import { describe, expect, it } from "vitest";
import type { PackEvent } from "@/features/packs/api/get-pack";
import { eventText, incidentReportUrl, movementLabel } from "@/features/packs/components/pack-page";

const holder = { key: "holder:u1:home_charger", kind: "holder", label: "Dara Holder (home charger)", userId: "u1" };
const ready = { key: "ready", kind: "ready", label: "Ready" };
const moved = (from: PackEvent["from"]): PackEvent => ({ id: "e1", kind: "moved", at: "2026-11-25T20:00:00Z", actor: null, from, to: holder, expected: null, movement: null });

describe("the pack page's history", () => {
  it("names an admin's assignment as one, not as the pickup it is recorded as", () => {
    expect(movementLabel({ id: "m1", type: "pickup", kind: "manual_assignment", occurredAt: "" })).toBe("assignment");
    expect(movementLabel({ id: "m2", type: "pickup", occurredAt: "" })).toBe("pickup");
    expect(movementLabel({ id: "m3", type: "driver_swap_out", kind: "swap", occurredAt: "" })).toBe("swap");
    expect(movementLabel({ id: "m4", type: "something_new", occurredAt: "" })).toBe("something_new");
  });
  it("says where a pack moved from, and only where to when it was seen for the first time", () => {
    expect(eventText(moved(ready))).toBe("Moved from Ready to Dara Holder (home charger)");
    expect(eventText(moved(null))).toBe("Moved to Dara Holder (home charger)");
  });
  it("reads a damage report and links its incident PDF", () => {
    expect(eventText({ ...moved(null), id: "ev1", kind: "damage", reason: "Swollen casing" })).toBe("Damage reported");
    expect(incidentReportUrl("SWB-000001", "ev1")).toBe("/api/admin/packs/SWB-000001/incidents/ev1/report");
  });
});
