// @vitest-environment node
import { describe, expect, it, vi } from "vitest";
import { handleUnauthorized } from "@/lib/unauthorized";

const toast = vi.hoisted(() => vi.fn());
vi.mock("@/hooks/use-toast", () => ({ toast }));

describe("handleUnauthorized", () => {
  it("toasts once and redirects to /auth after 500 ms", () => {
    vi.useFakeTimers();
    const go = vi.fn();
    handleUnauthorized(go);
    handleUnauthorized(go);
    expect(toast).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(499);
    expect(go).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(go).toHaveBeenCalledWith("/auth");
    vi.useRealTimers();
  });
});
