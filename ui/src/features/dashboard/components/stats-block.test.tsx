import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { StatsBlock } from "@/features/dashboard/components/stats-block";
import { type BatteryStats, stateQueryOptions } from "@/lib/state";

const toast = vi.hoisted(() => vi.fn());
vi.mock("@/hooks/use-toast", () => ({ toast }));

const STATS: BatteryStats = { total: 160, ready: 100, waiting: 30, charging: 10, inField: 20 };

function setup(answer: Response) {
  const fetch = vi.fn(async (_url: string, _init?: RequestInit) => answer);
  vi.stubGlobal("fetch", fetch);
  const qc = new QueryClient();
  // the dashboards' state query as the app holds it (its meta.staleOn says what refreshes it)
  qc.getQueryCache().build(qc, { queryKey: stateQueryOptions.queryKey, meta: stateQueryOptions.meta });
  qc.setQueryData(stateQueryOptions.queryKey, { stats: STATS, recentMovements: [] } as never);
  const stateStale = () => qc.getQueryState(stateQueryOptions.queryKey)?.isInvalidated;
  const ui = (stats: BatteryStats) => (
    <QueryClientProvider client={qc}>
      <StatsBlock stats={stats} editable />
    </QueryClientProvider>
  );
  const view = render(ui(STATS));
  return { fetch, stateStale, rerender: (stats: BatteryStats) => view.rerender(ui(stats)) };
}

async function editWaiting(value: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole("button", { name: "Edit Waiting" }));
  const input = screen.getByRole("spinbutton", { name: "New Waiting" });
  await user.clear(input);
  await user.type(input, value);
  return () => user.click(screen.getByRole("button", { name: "Save Waiting" }));
}

afterEach(() => {
  vi.unstubAllGlobals();
  toast.mockClear();
  document.body.innerHTML = "";
});

// first renders and typed input take seconds on a loaded machine: the limit is generous, the waits are on conditions
describe("StatsBlock's inline edit", { timeout: 60_000 }, () => {
  it("sends only the edited figure, its new value and the value shown when the edit began", async () => {
    const { fetch, rerender } = setup(new Response(JSON.stringify({ success: true, message: "ok", stats: STATS }), { status: 200 }));
    const save = await editWaiting("25");
    rerender({ ...STATS, waiting: 35 }); // a dropoff lands while the admin types
    await save();
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("/api/admin/update-stats");
    expect(JSON.parse(String(init?.body))).toEqual({ stat: "waiting", value: 25, from: 30 });
    expect((init?.headers as Record<string, string>)["Idempotency-Key"]).toBeTruthy();
    await waitFor(() => expect(toast).toHaveBeenCalledWith({ title: "Waiting updated successfully" }));
  });

  it("on 409 stat_changed shows the server's message in the Error toast and refreshes the state", async () => {
    const message = "Waiting changed from 30 to 35 while you were editing. Check the new figure and try again.";
    const { stateStale } = setup(new Response(JSON.stringify({ status: 409, message, data: {}, code: "stat_changed" }), { status: 409 }));
    const save = await editWaiting("25");
    await save();
    await waitFor(() => expect(toast).toHaveBeenCalledWith({ title: "Error", description: message, variant: "destructive" }));
    expect(stateStale()).toBe(true);
    // the edit closes: the next one starts from the refreshed figure
    expect(screen.queryByRole("spinbutton", { name: "New Waiting" })).toBeNull();
  });

  it("falls back to 'Failed to update statistic' without a server message", async () => {
    setup(new Response("", { status: 500 }));
    const save = await editWaiting("25");
    await save();
    await waitFor(() => expect(toast).toHaveBeenCalledWith({ title: "Error", description: "Failed to update statistic", variant: "destructive" }));
  });
});

describe("StatsBlock: the quarantine shelf", () => {
  it("shows Quarantined N beside the five figures, not editable, and nothing when the shelf is empty", () => {
    setup(new Response("{}"));
    expect(screen.queryByText("Quarantined")).toBeNull();
    document.body.innerHTML = "";
    const qc = new QueryClient();
    render(
      <QueryClientProvider client={qc}>
        <StatsBlock stats={{ ...STATS, ready: 98, quarantined: 2 }} editable />
      </QueryClientProvider>,
    );
    expect(screen.getByLabelText("Quarantined").textContent).toBe("2");
    expect(screen.queryByRole("button", { name: "Edit Quarantined" })).toBeNull();
  });
});
