// @vitest-environment node
import { describe, expect, it } from "vitest";
import { ADMIN_TABS, activeTab, visibleTabs } from "@/components/layouts/admin-tabs";

describe("admin tabs", () => {
  it("lists the spec's tabs in order, without /admin-emergency", () => {
    expect(ADMIN_TABS.map((t) => `${t.label} ${t.path}`)).toEqual([
      "Home /",
      "Driver Console /admin-console",
      "Charging /admin-charging",
      "Driver Management /admin-driver-swaps",
      "Dropoff Notes /admin-dropoff-notes",
      "Photos /admin-photos",
      "Packs /packs",
      "Users /admin-users",
      "System /admin-system",
    ]);
  });
  it("hides adminOnly tabs from drivers only", () => {
    const tabs = [{ label: "A", path: "/a" }, { label: "B", path: "/b", adminOnly: true }];
    expect(visibleTabs("driver", tabs).map((t) => t.label)).toEqual(["A"]);
    expect(visibleTabs("admin", tabs).map((t) => t.label)).toEqual(["A", "B"]);
    expect(visibleTabs("corporate_liason", tabs).map((t) => t.label)).toEqual(["A", "B"]);
  });
  it("highlights the tab of the current path; / only matches exactly", () => {
    expect(activeTab("/")?.label).toBe("Home");
    expect(activeTab("/admin-users")?.label).toBe("Users");
    expect(activeTab("/admin-emergency")).toBeUndefined();
  });
});
