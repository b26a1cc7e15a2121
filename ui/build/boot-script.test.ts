import { describe, expect, it } from "vitest";
import { cspHash } from "./boot-script";
import { bootScript } from "./boot-script-source";
import { FIRST_SCREENS, GUEST_ROUTES, SESSION_URL } from "../src/app/first-screen";

describe("bootScript", () => {
  it("carries the calls from the features' query definitions", () => {
    const roles = Object.fromEntries(Object.entries(FIRST_SCREENS).map(([r, s]) => [r, { api: s.api, js: [] }]));
    const script = bootScript({ session: SESSION_URL, guest: [], roles });
    expect(SESSION_URL).toBe("/api/auth/user");
    expect(FIRST_SCREENS.admin.api).toEqual([
      "/api/state",
      "/api/admin/charging-sessions",
      "/api/admin/recent-activity",
      "/api/admin/weekly-activity?activities=none",
    ]);
    for (const a of FIRST_SCREENS.admin.api) expect(script).toContain(JSON.stringify(a));
    expect(GUEST_ROUTES).toEqual(["src/features/auth/components/auth-page.tsx"]);
  });

  it("has the CSP hash of its exact text", () => {
    // echo -n 'x' | openssl dgst -sha256 -binary | base64
    expect(cspHash("x")).toBe("sha256-LXEWQrcmsEQBYnyp+6wy9chTD7GQPMTbAiWHF5IaSIE=");
  });
});
