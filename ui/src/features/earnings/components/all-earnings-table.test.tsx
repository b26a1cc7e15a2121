import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { EarningsRow, useAllEarnings } from "@/features/earnings/api/earnings";
import { AllEarningsTable } from "@/features/earnings/components/all-earnings-table";
import { makeQueryClient } from "@/lib/query-client";

afterEach(cleanup);

const row = (over: Partial<EarningsRow>): EarningsRow => ({
  userId: "u",
  firstName: "Dana",
  lastName: "Gone",
  email: "dana@example.com",
  role: "driver",
  former: false,
  deadBatteries: 5,
  moves: 0,
  recovers: 0,
  baseEarnings: 5,
  payReductionPercentage: 10,
  adminPoolWithholdingPercentage: 0,
  individualEarnings: 4.5,
  poolContribution: 0,
  poolShare: 0,
  totalEarnings: 4.5,
  counted: { deadBatteries: 5, moves: 0, recovers: 0 },
  adjustments: {},
  ...over,
});

function renderTable(rows: EarningsRow[]) {
  const data = {
    data: { weekStart: "2026-11-23", weekEnd: "2026-11-29", rates: { deadBattery: 1, move: 0.5, recover: 3, effectiveAt: "" }, earnings: rows },
    isPending: false,
    isError: false,
  } as unknown as ReturnType<typeof useAllEarnings>;
  render(
    <QueryClientProvider client={makeQueryClient(false)}>
      <AllEarningsTable weekStart="2026-11-23" data={data} />
    </QueryClientProvider>,
  );
}

describe("AllEarningsTable", () => {
  it("marks a deleted user's row and offers nothing to edit on it", () => {
    renderTable([row({ userId: "gone", former: true }), row({ userId: "here", firstName: "Ada", lastName: "Here" })]);
    expect(screen.getAllByText("(deleted)", { exact: false }).length).toBeGreaterThan(0);
    // the live user's reduction and counts are editable; the deleted one's are not
    expect(screen.getAllByText("Edit pay reduction of Ada Here").length).toBeGreaterThan(0);
    expect(screen.queryAllByText("Edit pay reduction of Dana Gone")).toHaveLength(0);
    expect(screen.getAllByText("Adjust", { exact: false }).some((n) => n.textContent?.includes("Ada Here"))).toBe(true);
    expect(screen.queryAllByText("Adjust", { exact: false }).some((n) => n.textContent?.includes("Dana Gone"))).toBe(false);
  });

  it("keeps the (deleted) mark out of a long name's truncation on the phone card", () => {
    renderTable([row({ userId: "gone", former: true, lastName: "Natarajan-Subramanian-Oyelaran" })]);
    const marks = screen.getAllByText("(deleted)", { exact: false });
    expect(marks.length).toBe(2); // the phone card and the table
    for (const m of marks) expect(m.closest(".truncate")).toBeNull();
  });
});
