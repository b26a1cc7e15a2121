// @vitest-environment node
import { describe, expect, it } from "vitest";
import { BATTERY_VIEWS, PERIOD_VIEWS, nextView } from "@/features/dashboard/utils/cycle";

describe("card cycles", () => {
  it("batteries: possession → daily → weekly → last week → possession", () => {
    const seen = [BATTERY_VIEWS[0]!];
    for (let i = 0; i < 4; i++) seen.push(nextView(BATTERY_VIEWS, seen.at(-1)!));
    expect(seen).toEqual(["possession", "daily", "weekly", "lastWeek", "possession"]);
  });
  it("moves and recovers: daily → weekly → last week → daily", () => {
    expect(nextView(PERIOD_VIEWS, "daily")).toBe("weekly");
    expect(nextView(PERIOD_VIEWS, "weekly")).toBe("lastWeek");
    expect(nextView(PERIOD_VIEWS, "lastWeek")).toBe("daily");
  });
});
