import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/api-client";
import { makeQueryClient, onQueryError } from "@/lib/query-client";

const toast = vi.hoisted(() => vi.fn());
vi.mock("@/hooks/use-toast", () => ({ toast }));

beforeEach(() => toast.mockClear());
afterEach(() => vi.useRealTimers());

describe("query defaults", () => {
  it("follow the spec: never stale, no focus refetch, always run, mutations never retry", () => {
    const d = makeQueryClient(false).getDefaultOptions();
    expect(d.queries?.staleTime).toBe(Infinity);
    expect(d.queries?.refetchOnWindowFocus).toBe(false);
    expect(d.queries?.refetchInterval).toBe(false);
    expect(d.queries?.networkMode).toBe("always");
    expect(d.mutations?.retry).toBe(false);
  });
  it("retry only once, after 2 s, in Safari-like browsers", () => {
    const retry = (safari: boolean) => makeQueryClient(safari).getDefaultOptions().queries?.retry as (n: number, e: Error) => boolean;
    expect(retry(false)(0, new Error("x"))).toBe(false);
    expect(retry(true)(0, new Error("x"))).toBe(true);
    expect(retry(true)(1, new Error("x"))).toBe(false);
    expect(retry(true)(0, new ApiError(401, "x"))).toBe(false);
    expect(makeQueryClient(true).getDefaultOptions().queries?.retryDelay).toBe(2000);
  });
});

describe("onQueryError", () => {
  it("toasts 'Failed to load data' for a failed load", () => {
    onQueryError(new ApiError(500, "boom"));
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: "Error", description: "Failed to load data. Please try again." }));
  });
  it("stays quiet for pending accounts and silent queries", () => {
    onQueryError(new ApiError(403, '{"message":"Account pending approval"}'));
    onQueryError(new ApiError(500, "boom"), true);
    expect(toast).not.toHaveBeenCalled();
  });
  it("shows Unauthorized for a 401", () => {
    vi.useFakeTimers();
    onQueryError(new ApiError(401, "x"));
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: "Unauthorized", description: "You are logged out. Logging in again..." }));
  });
});
