// @vitest-environment node
import { describe, expect, it } from "vitest";
import { addDays, formatMoney, parseRate, parseReduction, parseWithholding, poolShares, weekLabel } from "@/features/earnings/utils/money";

describe("earnings money and percentages", () => {
  it("shows the pool's shares as paid, not the smallest as each one's", () => {
    expect(poolShares([8.77, 8.76, 8.77], 8.76)).toEqual({ label: "Shares", value: "$8.77, $8.77, $8.76" });
    expect(poolShares([5, 5], 5)).toEqual({ label: "Share Each", value: "$5.00" });
    expect(poolShares([], 0)).toEqual({ label: "Share Each", value: "$0.00" });
  });
  it("shows money with two decimals", () => {
    expect(formatMoney(1234.5)).toBe("$1,234.50");
    expect(formatMoney(0)).toBe("$0.00");
    expect(formatMoney(undefined)).toBe("$0.00");
  });
  it("reads rates of 0 or more with at most 2 decimals", () => {
    expect(parseRate("1.25")).toBe(1.25);
    expect(parseRate("$2")).toBe(2);
    expect(parseRate(" 0 ")).toBe(0);
    for (const bad of ["-1", "1.255", "abc", "", "1e2", "01"]) expect(parseRate(bad)).toBeNull();
  });
  it("reads a reduction 0-100 whole and a withholding 0-100 in tenths", () => {
    expect(parseReduction("20")).toBe(20);
    expect(parseReduction("100")).toBe(100);
    for (const bad of ["101", "-1", "2.5", ""]) expect(parseReduction(bad)).toBeNull();
    expect(parseWithholding("12.5")).toBe(12.5);
    expect(parseWithholding("100")).toBe(100);
    for (const bad of ["100.1", "12.55", "-0.1", "x"]) expect(parseWithholding(bad)).toBeNull();
  });
  it("moves dates by calendar days and labels a week", () => {
    expect(addDays("2026-11-16", -7)).toBe("2026-11-09");
    expect(addDays("2026-03-02", 6)).toBe("2026-03-08");
    expect(weekLabel("2026-11-16")).toBe("Nov 16 – Nov 22");
  });
});
