import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WeeklyDriverActivity } from "@/features/activity/components/weekly-driver-activity";
import { makeQueryClient } from "@/lib/query-client";

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const cory = { id: "cory00000000001", firstName: "Cory", lastName: "Rected", role: "driver" };
const dana = { id: "dana00000000002", firstName: "Dana", lastName: "Admin", role: "admin" };
const totals = { deadBatteriesTotal: 3, rebalanceTotal: 7, retrievesRepairsTotal: 0 };
const week = {
  weekStart: "2026-11-23",
  weekEnd: "2026-11-29",
  weeklyTotals: { rebalanceTotal: 7, retrievesRepairsTotal: 0 },
  days: [],
};
const coryPickup = {
  id: "mv0000000000001",
  type: "pickup",
  quantity: -5,
  notes: "Brake lever loose",
  createdAt: "2026-11-23T10:00:00.000Z",
  meta: { userNotes: "Brake lever loose", good: 0, dead: 0 },
};

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

function renderCard(answer: (url: string) => Response) {
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      calls.push(url);
      return answer(url);
    }),
  );
  render(
    <QueryClientProvider client={makeQueryClient(false)}>
      <WeeklyDriverActivity canDelete />
    </QueryClientProvider>,
  );
  return calls;
}

describe("WeeklyDriverActivity", () => {
  it("polls the week without activity lists and asks for a driver's log when their card opens", async () => {
    const calls = renderCard((url) =>
      url.includes("user=")
        ? json({ ...week, driverBreakdown: [{ user: cory, ...totals, totalActivities: 1, activities: [coryPickup] }] })
        : json({
            ...week,
            driverBreakdown: [
              { user: cory, ...totals, totalActivities: 1 },
              { user: dana, deadBatteriesTotal: 0, rebalanceTotal: 0, retrievesRepairsTotal: 0, totalActivities: 0 },
            ],
          }),
    );
    // the collapsed cards show the totals from the summary
    const card = await screen.findByRole("button", { name: /^Cory Rected/ });
    expect(card.textContent).toContain("1 activity");
    expect(card.textContent).toContain("3 dead");
    expect(card.textContent).toContain("7 moves");
    expect(calls).toEqual(["/api/admin/weekly-activity?activities=none"]);

    await userEvent.click(card);
    const log = await screen.findByRole("list", { name: "Activity log of Cory Rected" });
    expect(within(log).getByText("Brake lever loose")).toBeTruthy();
    expect(within(log).getByRole("button", { name: /^Delete Pickup of 5,/ })).toBeTruthy();
    expect(calls).toEqual(["/api/admin/weekly-activity?activities=none", "/api/admin/weekly-activity?user=cory00000000001"]);

    // a driver whose week has nothing listed says so
    await userEvent.click(screen.getByRole("button", { name: /^Dana Admin/ }));
    expect(await screen.findByText("No activity")).toBeTruthy();
  });

  it("says when a driver's log cannot be loaded, and the week's cards stay", async () => {
    renderCard((url) =>
      url.includes("user=")
        ? json({ status: 500, message: "Unable to load driver activity", data: {} }, 500)
        : json({ ...week, driverBreakdown: [{ user: cory, ...totals, totalActivities: 1 }] }),
    );
    await userEvent.click(await screen.findByRole("button", { name: /^Cory Rected/ }));
    expect(await screen.findByText("Unable to load driver activity")).toBeTruthy();
    expect(screen.getByRole("button", { name: /^Cory Rected/ })).toBeTruthy();
  });
});
