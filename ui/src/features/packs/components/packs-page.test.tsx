import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, useLocation } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PacksPage } from "@/features/packs/components/packs-page";
import { makeQueryClient } from "@/lib/query-client";

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

const pack = (serial: string, more: object = {}) => ({
  id: serial,
  serial,
  model: "Nova",
  state: "in_service",
  location: { key: "ready", kind: "ready", label: "Ready" },
  lastSeen: null,
  missing: false,
  ...more,
});
const WORN = pack("SWB-000002", { worn: true, wornReason: "State of health 72% is under the model's 80%", soh: 72 });
const list = (packs: object[]) => ({ packs, total: packs.length, page: 1, perPage: 50, counts: { in_service: packs.length }, missingDays: 7 });

function Where() {
  const l = useLocation();
  return <output aria-label="Where">{l.pathname + l.search}</output>;
}

function renderAt(entry: string) {
  const fetch = vi.fn(async (url: string) => new Response(JSON.stringify(url.includes("worn=1") ? list([WORN]) : list([pack("SWB-000001"), WORN])), { status: 200 }));
  vi.stubGlobal("fetch", fetch);
  render(
    <QueryClientProvider client={makeQueryClient(false)}>
      <MemoryRouter initialEntries={[entry]}>
        <PacksPage admin={false} driver={false} />
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { fetch, user: userEvent.setup() };
}

describe("PacksPage's Worn filter", () => {
  it("filters the worn packs, keeps the filter in the URL and marks each with its reason", async () => {
    const { fetch, user } = renderAt("/packs");
    const packs = await screen.findByRole("list", { name: "Packs" });
    expect(await within(packs).findAllByRole("listitem")).toHaveLength(2);
    await user.click(screen.getByRole("button", { name: /^Worn/ }));
    expect(screen.getByRole("button", { name: /^Worn/ }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByRole("status", { name: "Where" }).textContent).toBe("/packs?worn=1");
    await vi.waitFor(() => expect(within(screen.getByRole("list", { name: "Packs" })).getAllByRole("listitem")).toHaveLength(1));
    expect(fetch.mock.calls.map(([u]) => String(u))).toContain("/api/packs?worn=1");
    const row = within(screen.getByRole("list", { name: "Packs" })).getByRole("listitem");
    expect(within(row).getByText("Worn")).toBeTruthy();
    expect(within(row).getByText("State of health 72% is under the model's 80%")).toBeTruthy();
    expect(within(row).getByText("Health 72%")).toBeTruthy();
    // All clears it, from the URL too
    await user.click(screen.getByRole("button", { name: /^All/ }));
    expect(screen.getByRole("status", { name: "Where" }).textContent).toBe("/packs");
  });

  it("opens filtered from a link (the attention strip's ?worn=1)", async () => {
    const { fetch } = renderAt("/packs?worn=1");
    await screen.findByRole("list", { name: "Packs" });
    expect(String(fetch.mock.calls[0]![0])).toBe("/api/packs?worn=1");
    expect(screen.getByRole("button", { name: /^Worn/ }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByRole("link", { name: "Models" }).getAttribute("href")).toBe("/packs/models");
  });
});
