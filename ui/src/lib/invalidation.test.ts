import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { INVALIDATIONS, invalidate } from "@/lib/invalidation";

function clientWith(keys: string[]) {
  const qc = new QueryClient();
  for (const k of keys) qc.setQueryData([k], 1);
  return qc;
}
const stale = (qc: QueryClient, key: string) => qc.getQueryState([key])?.isInvalidated;

describe("invalidate", () => {
  it("marks stale what a change names, query strings included, and nothing else", async () => {
    const qc = clientWith(["/api/state", "/api/admin/weekly-activity?weekOffset=-1", "/api/admin/charging-sessions", "/api/photos"]);
    await invalidate(qc, "driverOps");
    expect(stale(qc, "/api/state")).toBe(true);
    expect(stale(qc, "/api/admin/weekly-activity?weekOffset=-1")).toBe(true);
    expect(stale(qc, "/api/admin/charging-sessions")).toBe(false);
    expect(stale(qc, "/api/photos")).toBe(false);
  });
  it("refetches everything after an override", async () => {
    const qc = clientWith(["/api/state", "/api/photos"]);
    await invalidate(qc, "everything");
    expect(stale(qc, "/api/photos")).toBe(true);
  });
  it("names only API URLs, and every realtime message refreshes the dashboards' state", () => {
    for (const urls of Object.values(INVALIDATIONS)) for (const u of urls) expect(u).toMatch(/^\/api\//);
    for (const t of ["INVENTORY_UPDATED", "ACTIVITY_UPDATED", "CHARGING_UPDATED"] as const) expect(INVALIDATIONS[t]).toContain("/api/state");
  });
});
