import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NOTIFICATION_GRACE_MS, type StaleOn, afterWrite, invalidate, refreshWritten } from "@/lib/invalidation";
import { markRealtimeEvent, setRealtimeOpen } from "@/lib/connectivity";
import { stateQueryOptions } from "@/lib/state";

/** seed puts a query with its options (meta.staleOn included) and data into qc. */
function seed(qc: QueryClient, key: string, staleOn: StaleOn, data: unknown = 1) {
  qc.getQueryCache().build(qc, { queryKey: [key], meta: { staleOn } });
  qc.setQueryData([key], data);
}
const stale = (qc: QueryClient, key: string) => qc.getQueryState([key])?.isInvalidated;

afterEach(() => {
  setRealtimeOpen(false);
  vi.useRealTimers();
});

describe("invalidate (each query's meta.staleOn)", () => {
  it("marks stale the queries that name the change, and nothing else", async () => {
    const qc = new QueryClient();
    seed(qc, "/a", ["driverOps", "ACTIVITY_UPDATED"]);
    seed(qc, "/a?weekOffset=-1", ["driverOps"]);
    seed(qc, "/b", ["charging"]);
    qc.setQueryData(["/no-rules"], 1);
    await invalidate(qc, "driverOps");
    expect(stale(qc, "/a")).toBe(true);
    expect(stale(qc, "/a?weekOffset=-1")).toBe(true);
    expect(stale(qc, "/b")).toBe(false);
    expect(stale(qc, "/no-rules")).toBe(false);
  });
  it("refetches everything after an override", async () => {
    const qc = new QueryClient();
    seed(qc, "/b", ["charging"]);
    qc.setQueryData(["/no-rules"], 1);
    await invalidate(qc, "everything");
    expect(stale(qc, "/b")).toBe(true);
    expect(stale(qc, "/no-rules")).toBe(true);
  });
  it("refreshWritten (the link reopened) refetches every query a change makes stale", async () => {
    const qc = new QueryClient();
    seed(qc, "/a", ["INVENTORY_UPDATED"]);
    seed(qc, "/b", ["photos"]);
    qc.setQueryData(["/api/auth/user"], 1);
    await refreshWritten(qc);
    expect(stale(qc, "/a")).toBe(true);
    expect(stale(qc, "/b")).toBe(true);
    expect(stale(qc, "/api/auth/user")).toBe(false);
  });
  it("the dashboards' state is stale on every ledger message and write", () => {
    for (const c of ["INVENTORY_UPDATED", "ACTIVITY_UPDATED", "CHARGING_UPDATED", "driverOps", "activity", "charging", "custody"] as const)
      expect(stateQueryOptions.meta?.staleOn).toContain(c);
  });
});

describe("afterWrite", () => {
  const state = { stats: { total: 160, ready: 150, waiting: 5, charging: 5, inField: 0 }, recentMovements: [] };
  const answer = { success: true, stats: { total: 160, ready: 149, waiting: 5, charging: 5, inField: 1 } };

  it("puts the answer's figures into /api/state and leaves its refetch to the notification", async () => {
    vi.useFakeTimers();
    const qc = new QueryClient();
    seed(qc, "/api/driver/recent-movements", ["driverOps"]);
    seed(qc, "/api/state", ["driverOps"], state);
    setRealtimeOpen(true);
    await afterWrite(qc, "driverOps", answer);
    expect(qc.getQueryData<typeof state>(["/api/state"])?.stats.ready).toBe(149);
    expect(qc.getQueryData<typeof state>(["/api/state"])?.recentMovements).toEqual([]);
    expect(stale(qc, "/api/state")).toBe(false);
    expect(stale(qc, "/api/driver/recent-movements")).toBe(true);
    markRealtimeEvent();
    await vi.advanceTimersByTimeAsync(NOTIFICATION_GRACE_MS + 10);
    expect(stale(qc, "/api/state")).toBe(false);
  });
  it("refetches /api/state anyway when no notification follows (the link reconnected after the commit)", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.now() + 60_000);
    const qc = new QueryClient();
    seed(qc, "/api/state", ["driverOps"], state);
    setRealtimeOpen(true);
    await afterWrite(qc, ["driverOps"], answer);
    expect(stale(qc, "/api/state")).toBe(false);
    await vi.advanceTimersByTimeAsync(NOTIFICATION_GRACE_MS + 10);
    expect(stale(qc, "/api/state")).toBe(true);
  });
  it("refetches /api/state too while the realtime link is down, or when the answer has no figures", async () => {
    const qc = new QueryClient();
    seed(qc, "/api/state", ["driverOps"], state);
    await afterWrite(qc, "driverOps", answer);
    expect(stale(qc, "/api/state")).toBe(true);
    const qc2 = new QueryClient();
    seed(qc2, "/api/state", ["activity"]);
    setRealtimeOpen(true);
    await afterWrite(qc2, "activity", { message: "ok" });
    expect(stale(qc2, "/api/state")).toBe(true);
  });
});

describe("a stream of changes while a refetch is in flight (a busy bay)", () => {
  // the server's figure, read when a fetch starts; each fetch takes FETCH_MS to answer
  const FETCH_MS = 400;
  function watched(server: { v: number }) {
    const qc = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
    let fetches = 0;
    const observer = new QueryObserver(qc, {
      queryKey: ["/api/admin/all-earnings"],
      meta: { staleOn: ["ACTIVITY_UPDATED", "earnings"] },
      queryFn: async () => {
        fetches++;
        const v = server.v;
        await new Promise((r) => setTimeout(r, FETCH_MS));
        return v;
      },
    });
    const stop = observer.subscribe(() => {});
    return { qc, stop, fetches: () => fetches, data: () => qc.getQueryData<number>(["/api/admin/all-earnings"]) };
  }

  it("shows the new figure while messages keep coming faster than a fetch answers", async () => {
    vi.useFakeTimers();
    const server = { v: 0 };
    const q = watched(server);
    await vi.advanceTimersByTimeAsync(FETCH_MS + 10);
    expect(q.data()).toBe(0);
    server.v = 1;
    void invalidate(q.qc, "earnings");
    // other drivers' activity: a message every 100 ms, for 3 s
    for (let t = 0; t < 3000; t += 100) {
      void invalidate(q.qc, "ACTIVITY_UPDATED");
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(q.data()).toBe(1);
    // one fetch at a time, never one per message
    expect(q.fetches()).toBeLessThan(12);
    q.stop();
  });

  it("fetches again after a fetch that started before the change (the change is not lost)", async () => {
    vi.useFakeTimers();
    const server = { v: 0 };
    const q = watched(server);
    await vi.advanceTimersByTimeAsync(FETCH_MS / 2);
    server.v = 1;
    let done = false;
    void invalidate(q.qc, "earnings").then(() => (done = true));
    await vi.advanceTimersByTimeAsync(FETCH_MS / 2 + 10);
    expect(q.data()).toBe(0);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(FETCH_MS + 10);
    expect(q.data()).toBe(1);
    expect(done).toBe(true);
    q.stop();
  });
});
