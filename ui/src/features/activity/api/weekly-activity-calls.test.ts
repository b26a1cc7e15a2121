// @vitest-environment node
import { describe, expect, it } from "vitest";
import { driverWeekActivitiesUrl } from "@/features/activity/api/get-driver-week-activities";
import { adminWeeklyActivityUrl } from "@/lib/weekly-activity";

describe("weekly activity calls", () => {
  it("the dashboards ask for the summary; one user's activities are a call of their own", () => {
    expect(adminWeeklyActivityUrl(0)).toBe("/api/admin/weekly-activity?activities=none");
    expect(adminWeeklyActivityUrl(-1)).toBe("/api/admin/weekly-activity?weekOffset=-1&activities=none");
    expect(driverWeekActivitiesUrl("abc123")).toBe("/api/admin/weekly-activity?user=abc123");
    expect(driverWeekActivitiesUrl("abc123", -1)).toBe("/api/admin/weekly-activity?weekOffset=-1&user=abc123");
  });
});
