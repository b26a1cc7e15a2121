import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Passport } from "@/features/packs/api/get-passport";
import { PublicPackPage } from "@/features/packs/components/public-pack-page";
import { makeQueryClient } from "@/lib/query-client";

const toasts = vi.hoisted(() => vi.fn());
vi.mock("@/hooks/use-toast", () => ({ toast: toasts }));

const passport: Passport = {
  dataModel: "Battery Pass data model v1.2.0",
  restricted: false,
  generalProductInformation: {
    productIdentifier: "SWB-000007",
    batteryPassportIdentifier: "urn:swapbay:abc",
    batteryCategory: "lmt",
    manufacturerInformation: { contactName: "Voltcell" },
    manufacturingDate: "2026-03",
  },
  materialComposition: { batteryChemistry: { shortName: "NMC", clearName: "Lithium nickel manganese cobalt oxide" } },
  swapbay: {
    serial: "SWB-000007",
    model: "Nova 48V",
    chemistry: "NMC",
    nominalEnergyWh: 720,
    manufacturer: "Voltcell",
    lot: "L1",
    manufactured: "2026-03",
    state: "quarantined",
    stateLabel: "Quarantined",
  },
};

function renderWith(body: unknown, status = 200) {
  const fetch = vi.fn(async (_url: string) => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal("fetch", fetch);
  render(
    <QueryClientProvider client={makeQueryClient(false)}>
      <MemoryRouter>
        <PublicPackPage serial="SWB-000007" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return fetch;
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

describe("PublicPackPage", () => {
  it("shows the pack's public attributes and its state in words", async () => {
    const fetch = renderWith(passport);
    expect(await screen.findByText("Nova 48V")).toBeTruthy();
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("SWB-000007");
    expect(screen.getByText("Quarantined")).toBeTruthy();
    expect(screen.getByText("NMC (Lithium nickel manganese cobalt oxide)")).toBeTruthy();
    expect(screen.getByText("720 Wh")).toBeTruthy();
    expect(String(fetch.mock.calls[0]![0])).toMatch(/\/api\/packs\/SWB-000007\/passport$/);
  });
  it("says an unknown serial is unknown, without a toast", async () => {
    renderWith({ status: 404, message: "Pack not found", data: {} }, 404);
    expect((await screen.findByRole("alert")).textContent).toBe("No pack has this serial.");
    expect(toasts).not.toHaveBeenCalled();
  });
  it("passes on the server's message when it is asked too often", async () => {
    renderWith({ status: 429, message: "Too many requests. Please wait a moment and try again.", data: {} }, 429);
    expect((await screen.findByRole("alert")).textContent).toBe("Too many requests. Please wait a moment and try again.");
  });
});
