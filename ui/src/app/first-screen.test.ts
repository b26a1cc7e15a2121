import { describe, expect, it } from "vitest";
import { bootScript } from "../../build/boot-script-source";
import { FIRST_SCREENS, GUEST_ROUTES, SESSION_URL } from "@/app/first-screen";
import { firstScreenRoutes } from "@/app/first-screen-routes";
import { ROUTE_MODULES } from "@/app/router";

describe("first screens", () => {
  it("carries the calls from the features' query definitions", () => {
    const roles = Object.fromEntries(Object.entries(FIRST_SCREENS).map(([r, s]) => [r, { api: s.api, js: [] }]));
    const script = bootScript({ session: SESSION_URL, guest: [], roles });
    expect(SESSION_URL).toBe("/api/auth/user");
    expect(FIRST_SCREENS.admin?.api ?? []).toEqual([
      "/api/state",
      "/api/admin/attention",
      "/api/admin/charging-sessions",
      "/api/admin/recent-activity",
      "/api/admin/weekly-activity?activities=none",
    ]);
    expect(FIRST_SCREENS.driver?.api ?? []).toEqual([
      "/api/state",
      "/api/driver/dead-battery-stats",
      "/api/packs",
      "/api/driver/pay-estimate",
      "/api/driver/recent-movements",
    ]);
    for (const a of [...(FIRST_SCREENS.admin?.api ?? []), ...(FIRST_SCREENS.driver?.api ?? [])]) expect(script).toContain(JSON.stringify(a));
    expect(GUEST_ROUTES).toEqual(["src/features/auth/components/auth-page.tsx"]);
  });

  it("the router preloads the same route modules, and each exists", () => {
    for (const [role, screen] of Object.entries(FIRST_SCREENS)) {
      const user = { role, isApproved: "approved", mustResignTerms: false };
      expect(firstScreenRoutes(user), role).toEqual(screen.routes);
      for (const r of screen.routes) expect(ROUTE_MODULES[r.replace(/^src\/app\//, "./")], r).toBeDefined();
    }
    expect(firstScreenRoutes(null)).toEqual([]);
    expect(firstScreenRoutes({ role: "driver", isApproved: "approved", mustResignTerms: true })).toEqual([]);
    expect(firstScreenRoutes({ role: "driver", isApproved: "pending" })).toEqual([]);
  });

});
