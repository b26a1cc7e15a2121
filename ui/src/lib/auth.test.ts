import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { userQueryOptions } from "@/lib/auth";
import { formatDateTime, timeZone } from "@/lib/format";

afterEach(() => vi.unstubAllGlobals());

describe("the current user's answer", () => {
  it("sets the operation's time zone every time is then shown in", async () => {
    const user = { id: "u1", role: "driver", isApproved: "pending", mustResignTerms: false, timeZone: "Asia/Kolkata" };
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify(user), { status: 200 })));
    expect(timeZone()).toBeUndefined();
    await expect(new QueryClient().fetchQuery(userQueryOptions)).resolves.toMatchObject({ timeZone: "Asia/Kolkata" });
    expect(timeZone()).toBe("Asia/Kolkata");
    expect(formatDateTime("2026-01-05T23:30:00Z")).toBe("Jan 6, 5:00 AM");
  });
  it("keeps the zone when signed out", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response('{"status":401}', { status: 401 })));
    await expect(new QueryClient().fetchQuery(userQueryOptions)).resolves.toBeNull();
    expect(timeZone()).toBe("Asia/Kolkata");
  });
});
