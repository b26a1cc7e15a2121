import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { INVALIDATIONS, afterWrite, invalidate } from "@/lib/invalidation";
import { setRealtimeOpen } from "@/lib/realtime-status";

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

describe("afterWrite", () => {
  const state = { stats: { total: 160, ready: 150, waiting: 5, charging: 5, inField: 0 }, recentMovements: [] };
  const answer = { success: true, stats: { total: 160, ready: 149, waiting: 5, charging: 5, inField: 1 } };

  it("puts the answer's figures into /api/state and leaves its refetch to the notification", async () => {
    const qc = clientWith(["/api/driver/recent-movements"]);
    qc.setQueryData(["/api/state"], state);
    setRealtimeOpen(true);
    await afterWrite(qc, "driverOps", answer);
    expect(qc.getQueryData<typeof state>(["/api/state"])?.stats.ready).toBe(149);
    expect(qc.getQueryData<typeof state>(["/api/state"])?.recentMovements).toEqual([]);
    expect(stale(qc, "/api/state")).toBe(false);
    expect(stale(qc, "/api/driver/recent-movements")).toBe(true);
    setRealtimeOpen(false);
  });
  it("refetches /api/state too while the realtime link is down, or when the answer has no figures", async () => {
    const qc = clientWith([]);
    qc.setQueryData(["/api/state"], state);
    await afterWrite(qc, "driverOps", answer);
    expect(stale(qc, "/api/state")).toBe(true);
    const qc2 = clientWith(["/api/state"]);
    setRealtimeOpen(true);
    await afterWrite(qc2, "activity", { message: "ok" });
    expect(stale(qc2, "/api/state")).toBe(true);
    setRealtimeOpen(false);
  });
});
