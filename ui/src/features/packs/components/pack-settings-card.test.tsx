import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PackSettingsCard } from "@/features/packs/components/pack-settings-card";
import { makeQueryClient } from "@/lib/query-client";

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

function renderCard(unnamedInBay?: number) {
  const inventory = { settings: { pack_tracking: "required" }, stats: {}, ready: 0, waiting: 0, charging: 0, total: 0 };
  vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify(inventory), { status: 200 })));
  render(
    <QueryClientProvider client={makeQueryClient(false)}>
      <MemoryRouter>
        <PackSettingsCard unnamedInBay={unnamedInBay} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return screen.getByRole("region", { name: "Pack tracking" });
}

describe("PackSettingsCard after the switch to required", () => {
  it("says to count the bay, with the stocktake's link, while the bay's batteries are not all named packs", () => {
    const card = renderCard(5);
    const hint = within(card).getByRole("status");
    expect(hint.textContent).toContain("5 batteries in the bay are not named packs yet. Count the bay so every battery is a named pack.");
    expect(within(hint).getByRole("link", { name: "Count the bay" }).getAttribute("href")).toBe("/packs/stocktake?place=bay");
  });

  it("says nothing once every battery in the bay is a named pack (or in the other modes: 0)", () => {
    const card = renderCard(0);
    expect(within(card).queryByRole("status")).toBeNull();
    expect(within(card).queryByRole("link", { name: "Count the bay" })).toBeNull();
  });
});
