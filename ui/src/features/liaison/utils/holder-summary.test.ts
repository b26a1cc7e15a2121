// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { LiaisonHolder } from "@/features/liaison/api/get-liaison-battery-holders";
import { assetTotals, groupByType, isOwner, latestDate } from "@/features/liaison/utils/holder-summary";

const holders: LiaisonHolder[] = [
  {
    user: { id: "a", firstName: "Ada", lastName: "Admin", role: "admin" },
    total: 5,
    assignments: [
      { id: "1", assignmentType: "home_charger", quantity: 3, date: "2026-11-20T10:00:00Z" },
      { id: "2", assignmentType: "pickup", quantity: 2, date: "2026-11-21T10:00:00Z" },
    ],
  },
  {
    user: { id: "d", firstName: "Dan", lastName: "Driver", role: "driver" },
    total: 4,
    assignments: [{ id: "3", assignmentType: "pickup", quantity: 4, date: "2026-11-19T10:00:00Z" }],
  },
];

describe("holder summary", () => {
  it("counts personnel and assets", () => expect(assetTotals(holders)).toEqual({ personnel: 2, assets: 9 }));
  it("tags admins as owners", () => {
    expect(isOwner("admin")).toBe(true);
    expect(isOwner("master_admin")).toBe(true);
    expect(isOwner("driver")).toBe(false);
  });
  it("takes the latest assignment date", () => expect(latestDate(holders[0]!)).toBe("2026-11-21T10:00:00Z"));
  it("groups by assignment type, largest first", () => {
    expect(groupByType(holders).map((g) => [g.assignmentType, g.total, g.holders.length])).toEqual([
      ["pickup", 6, 2],
      ["home_charger", 3, 1],
    ]);
  });
});
