// @vitest-environment node
import { describe, expect, it } from "vitest";
import { lateActionLabel } from "@/lib/late-action";

describe("lateActionLabel", () => {
  it("writes both times in the operation's zone when sent more than a minute late", () => {
    const m = { createdAt: "2026-11-23T14:15:00.000Z", recordedAt: "2026-11-23T15:42:10.000Z" };
    expect(lateActionLabel(m, "America/New_York")).toBe("done 09:15 · sent 10:42");
    expect(lateActionLabel(m, "UTC")).toBe("done 14:15 · sent 15:42");
  });
  it("crosses midnight in the zone, not in UTC", () => {
    const m = { createdAt: "2026-11-23T04:50:00.000Z", recordedAt: "2026-11-23T13:00:00.000Z" };
    expect(lateActionLabel(m, "America/New_York")).toBe("done 23:50 · sent 08:00");
  });
  it("is null for an action recorded within a minute, or without recordedAt", () => {
    expect(lateActionLabel({ createdAt: "2026-11-23T14:15:00.000Z", recordedAt: "2026-11-23T14:16:00.000Z" }, "UTC")).toBeNull();
    expect(lateActionLabel({ createdAt: "2026-11-23T14:15:00.000Z" }, "UTC")).toBeNull();
  });
});
