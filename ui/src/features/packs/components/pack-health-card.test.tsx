import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PackHealth } from "@/features/packs/api/get-pack-health";
import { NO_READINGS, PackHealthCard, filledWeeks } from "@/features/packs/components/pack-health-card";
import { capacityText, fullCyclesText, trendText } from "@/features/packs/components/pack-health-format";
import { makeQueryClient } from "@/lib/query-client";

// the canvas chart (uPlot) has no canvas in jsdom: a stand-in says what it was given
vi.mock("@/features/packs/components/pack-health-chart", () => ({
  HealthChart: ({ kind, y }: { kind: string; y: number[] }) => <div data-testid={`chart-${kind}`}>{y.join(",")}</div>,
}));

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

const BARE: PackHealth = {
  serial: "SWB-000001",
  model: "Nova 48V",
  threshold: 80,
  charges: 3,
  fullCycles: { value: 3, basis: "charges" },
  worn: false,
  wornReason: "",
  series: { soh: [], chargesPerWeek: [] },
  negativeEvents: [],
};

function renderWith(answer: PackHealth) {
  const fetch = vi.fn(async (_url: string) => new Response(JSON.stringify(answer), { status: 200 }));
  vi.stubGlobal("fetch", fetch);
  render(
    <QueryClientProvider client={makeQueryClient(false)}>
      <PackHealthCard serial={answer.serial} />
    </QueryClientProvider>,
  );
  return fetch;
}

/** fact reads the value of one label of the card's facts. */
async function fact(label: string) {
  const term = await screen.findByText(label, { selector: "dt" });
  return term.nextElementSibling?.textContent;
}

describe("PackHealthCard", () => {
  it("says what it does not know instead of inventing it", async () => {
    const fetch = renderWith(BARE);
    expect(await fact("State of health")).toBe(NO_READINGS);
    expect(await fact("Capacity")).toBe(NO_READINGS);
    expect(await fact("Energy throughput")).toBe("Not known: no charger or BMS has reported energy yet");
    expect(await fact("30-day trend")).toBe("Not enough readings");
    // without energy the charges are only an upper bound on the cycles
    expect(await fact("Full cycles")).toBe("at most 3 (counted from charges; the energy is not known)");
    expect(await fact("Worn")).toBe("No");
    const figure = (caption: string) => screen.getByText(caption, { selector: "figcaption" }).closest("figure") as HTMLElement;
    expect(within(figure("State of health over time")).getByText(NO_READINGS)).toBeTruthy();
    expect(within(figure("Charges per week")).getByText("No charges in the last 12 months")).toBeTruthy();
    expect(screen.queryByRole("table")).toBeNull();
    expect(screen.queryByTestId("chart-soh")).toBeNull();
    expect(screen.getByText("None recorded")).toBeTruthy();
    expect(String(fetch.mock.calls[0]![0])).toBe("/api/packs/SWB-000001/health");
  });

  it("draws the charts and gives their figures as tables for screen readers", async () => {
    renderWith({
      ...BARE,
      charges: 40,
      fullCycles: { value: 31.4, basis: "energy" },
      energyThroughputWh: 22_600,
      soh: { value: 72, source: "reading", at: "2026-11-20T10:00:00Z" },
      capacity: { fullAh: 10.8, designAh: 15, at: "2026-11-20T10:00:00Z" },
      drop30: 4,
      worn: true,
      wornReason: "State of health 72% is under the model's 80%",
      series: {
        soh: [
          { at: "2026-10-20T10:00:00Z", value: 76, source: "reading" },
          { at: "2026-11-20T10:00:00Z", value: 72, source: "reading" },
        ],
        chargesPerWeek: [
          { week: "2026-11-09", charges: 2 },
          { week: "2026-11-16", charges: 5 },
        ],
      },
      negativeEvents: [{ at: "2026-11-01T08:00:00Z", kind: "over_temperature", text: "62 °C at the BMS" }],
    });
    expect(await fact("State of health")).toBe("72%, from the pack's BMS, November 20, 2026");
    expect(await fact("Full cycles")).toBe("31.4");
    expect(await fact("Energy throughput")).toBe("22.6 kWh");
    expect(await fact("Capacity")).toBe("10.8 of 15 Ah (November 20, 2026)");
    expect(await fact("30-day trend")).toBe("Lost 4 points in 30 days");
    expect(await fact("Worn")).toBe("Yes: State of health 72% is under the model's 80%");
    expect((await screen.findByTestId("chart-soh")).textContent).toBe("76,72");
    // the weeks without a charge are drawn as 0, eight weeks at least
    expect((await screen.findByTestId("chart-charges")).textContent).toBe("0,0,0,0,0,0,2,5");

    const soh = screen.getByRole("table", { name: /State of health readings/ });
    expect(within(soh).getAllByRole("row").map((r) => r.textContent)).toEqual([
      "DateState of healthSource",
      "October 20, 202676%BMS reading",
      "November 20, 202672%BMS reading",
    ]);
    const weeks = screen.getByRole("table", { name: /Completed charges per week/ });
    expect(within(weeks).getAllByRole("row").map((r) => r.textContent)).toEqual(["Week ofCharges", "Nov 9, 20262", "Nov 16, 20265"]);
    // the tables are for screen readers; the chart is hidden from them
    expect(soh.parentElement?.className).toBe("sr-only");
    expect(screen.getByText("Over temperature").closest("li")?.textContent).toBe("Over temperature · November 1, 2026: 62 °C at the BMS");
  });

  it("labels an estimate as one", async () => {
    renderWith({ ...BARE, soh: { value: 88.5, source: "estimate", at: "2026-11-20T10:00:00Z" } });
    expect(await fact("State of health")).toBe("88.5%, estimated from charges");
  });

  it("says when the health cannot be loaded", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify({ message: "no" }), { status: 404 })));
    render(
      <QueryClientProvider client={makeQueryClient(false)}>
        <PackHealthCard serial="SWB-9" />
      </QueryClientProvider>,
    );
    expect((await screen.findByRole("alert")).textContent).toBe("Could not load the pack's health.");
  });
});

describe("filledWeeks", () => {
  it("fills the weeks the server leaves out with 0, across a month's end, and spans eight weeks at least", () => {
    expect(filledWeeks([])).toEqual([]);
    const weeks = filledWeeks([
      { week: "2026-08-17", charges: 3 },
      { week: "2026-09-07", charges: 1 },
      { week: "2026-10-26", charges: 2 },
    ]);
    expect(weeks.map((w) => `${w.week}:${w.charges}`)).toEqual([
      "2026-08-17:3",
      "2026-08-24:0",
      "2026-08-31:0",
      "2026-09-07:1",
      "2026-09-14:0",
      "2026-09-21:0",
      "2026-09-28:0",
      "2026-10-05:0",
      "2026-10-12:0",
      "2026-10-19:0",
      "2026-10-26:2",
    ]);
    expect(filledWeeks([{ week: "2026-11-23", charges: 1 }]).map((w) => w.week)).toEqual([
      "2026-10-05",
      "2026-10-12",
      "2026-10-19",
      "2026-10-26",
      "2026-11-02",
      "2026-11-09",
      "2026-11-16",
      "2026-11-23",
    ]);
  });
});

describe("the health figures in words", () => {
  it("reads the trend, the cycles and the capacity", () => {
    expect(trendText(0)).toBe("No change in 30 days");
    expect(trendText(1)).toBe("Lost 1 point in 30 days");
    expect(trendText(-2)).toBe("Gained 2 points in 30 days");
    expect(fullCyclesText({ value: 12, basis: "energy" })).toBe("12");
    expect(capacityText({ fullWh: 580, designWh: 720, at: "" })).toBe("580 of 720 Wh");
    expect(capacityText({ fullAh: 12.1, designAh: 15, fullWh: 580, at: "" })).toBe("12.1 of 15 Ah · 580 Wh");
  });
});
