// @vitest-environment node
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import "@/app/driver-actions";
import { driverRecentMovementsQueryOptions } from "@/features/activity/api/get-recent-activity";
import { payEstimateQueryOptions } from "@/features/earnings/api/earnings";
import { photosQueryOptions } from "@/features/photos/api/photos";
import { afterWrite } from "@/lib/invalidation";
import { stateQueryOptions } from "@/lib/state";
import { actionOf } from "@/features/outbox/api/actions";
import type { StoredItem } from "@/features/outbox/api/outbox";
import { holdingsDelta, itemLabel, pendingCounts, pendingFeed } from "@/features/outbox/hooks/use-outbox";

// The features' declarations as the app registers them: what a queued action shows at once.
describe("the registered driver actions", () => {
  const item = (kind: string, body: Record<string, unknown>, status: StoredItem["status"] = "waiting"): StoredItem => ({
    seq: 1,
    key: `k-${kind}`,
    kind,
    userId: "u1",
    body,
    occurredAt: "2026-11-25T06:00:00.000Z",
    status,
    attempts: 0,
  });
  const items = [
    item("pickup", { quantity: 4 }),
    item("dropoff", { goodBatteries: 2, deadBatteries: 1 }),
    item("rebalance", { quantity: 3 }),
    item("retrieves_repairs_dropoff", { quantity: 2 }),
    item("photo", { filename: "x.png" }),
    item("pickup", { quantity: 50 }, "refused"),
  ];
  it("each is sent somewhere and refreshes something", () => {
    for (const kind of ["pickup", "dropoff", "rebalance", "retrieves_repairs_dropoff", "photo", "pack-damage-photo", "pack-damage"]) {
      const a = actionOf(kind);
      expect(a, kind).toBeDefined();
      expect(!!a!.url || !!a!.send, kind).toBe(true);
      expect(a!.refreshes.length, kind).toBeGreaterThan(0);
    }
  });
  it("labels", () => {
    expect(items.slice(0, 5).map(itemLabel)).toEqual(["Pickup · 4 batteries", "Dropoff · 2 good, 1 dead", "Moves · 3", "Recovers · 2", "Photo · x.png"]);
  });
  it("holdings count queued pickups and dropoffs, not refused ones", () => {
    expect(holdingsDelta(items)).toBe(1);
  });
  it("pay progress counts dead batteries, moves and recovers", () => {
    expect(pendingCounts(items)).toEqual({ actions: 4, deadBatteries: 1, moves: 3, recovers: 2 });
  });
  it("the feed shows queued movements at their tap time, marked pending", () => {
    const feed = pendingFeed(items);
    expect(feed.map((m) => [m.type, m.quantity, m.pending])).toEqual([
      ["retrieves_repairs_dropoff", 2, true],
      ["rebalance", 3, true],
      ["dropoff", 3, true],
      ["pickup", 4, true],
    ]);
    expect(feed[0]!.occurredAt).toBe("2026-11-25T06:00:00.000Z");
  });
  it("recording one refreshes the driver's figures, feed and pay (photos: the gallery), by the queries' own rules", async () => {
    const reads = [stateQueryOptions, driverRecentMovementsQueryOptions, payEstimateQueryOptions, photosQueryOptions];
    const want: Record<string, string[]> = {
      pickup: ["/api/state", "/api/driver/recent-movements", "/api/driver/pay-estimate"],
      dropoff: ["/api/state", "/api/driver/recent-movements", "/api/driver/pay-estimate"],
      rebalance: ["/api/state", "/api/driver/recent-movements", "/api/driver/pay-estimate"],
      retrieves_repairs_dropoff: ["/api/state", "/api/driver/recent-movements", "/api/driver/pay-estimate"],
      photo: ["/api/photos"],
    };
    for (const [kind, urls] of Object.entries(want)) {
      const qc = new QueryClient();
      for (const o of reads) {
        qc.getQueryCache().build(qc, { queryKey: o.queryKey, meta: o.meta });
        qc.setQueryData(o.queryKey, 1 as never);
      }
      await afterWrite(qc, actionOf(kind)!.refreshes);
      expect(reads.map((o) => String(o.queryKey[0])).filter((u) => qc.getQueryState([u])?.isInvalidated), kind).toEqual(urls);
    }
  });
});
