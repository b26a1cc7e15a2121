import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PackModel } from "@/features/packs/api/get-pack-models";
import { PackModelsPage } from "@/features/packs/components/pack-models-page";
import { makeQueryClient } from "@/lib/query-client";

vi.setConfig({ testTimeout: 20_000 });

const toasts = vi.hoisted(() => vi.fn());
vi.mock("@/hooks/use-toast", () => ({ toast: toasts }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toasts.mockReset();
  document.body.innerHTML = "";
});

const NOVA: PackModel = { model: "Nova 48V", nominalWh: 720, ratedAh: 15, threshold: 80, configured: true, packs: 24, worn: 2 };
const BARE: PackModel = { model: "Bolt 36V", nominalWh: 0, ratedAh: 0, threshold: 80, configured: false, packs: 3, worn: 0 };

function renderAs(admin: boolean) {
  const calls: { method: string; body: unknown; key: string | null }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init: RequestInit = {}) => {
      const method = init.method ?? "GET";
      calls.push({ method, body: init.body ? JSON.parse(String(init.body)) : undefined, key: new Headers(init.headers).get("Idempotency-Key") });
      if (method === "PUT") return new Response(JSON.stringify({ success: true, message: "Model Nova 48V saved", model: { ...NOVA, threshold: 75 } }));
      return new Response(JSON.stringify({ models: [NOVA, BARE] }));
    }),
  );
  render(
    <QueryClientProvider client={makeQueryClient(false)}>
      <MemoryRouter>
        <PackModelsPage admin={admin} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { calls, user: userEvent.setup() };
}

const figures = (item: HTMLElement) => [...item.querySelectorAll("dt")].map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`);

describe("PackModelsPage", () => {
  it("lists each model with its packs, worn count and figures; a figure not known says so; the liaison only reads", async () => {
    renderAs(false);
    const items = within(await screen.findByRole("list", { name: "Pack models" })).getAllByRole("listitem");
    expect(figures(items[0]!)).toEqual(["Packs: 24", "Worn: 2", "Nominal energy: 720 Wh", "Rated capacity: 15 Ah", "End-of-life threshold: 80%"]);
    expect(within(items[0]!).getByText("2 worn packs")).toBeTruthy();
    expect(figures(items[1]!)).toEqual(["Packs: 3", "Worn: 0", "Nominal energy: Not known", "Rated capacity: Not known", "End-of-life threshold: 80%"]);
    expect(within(items[1]!).getByText("Defaults")).toBeTruthy();
    expect(screen.queryByRole("button", { name: /^Edit/ })).toBeNull();
  });

  it("refuses numbers out of range with a message, then saves the model keyed", async () => {
    const { calls, user } = renderAs(true);
    await user.click(await screen.findByRole("button", { name: "Edit Nova 48V" }));
    const dialog = await screen.findByRole("dialog", { name: "Model Nova 48V" });
    const threshold = within(dialog).getByLabelText("End-of-life threshold (%)");
    await user.clear(threshold);
    await user.type(threshold, "101");
    await user.clear(within(dialog).getByLabelText("Nominal Wh"));
    await user.type(within(dialog).getByLabelText("Nominal Wh"), "-5");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText("The end-of-life threshold must be a number from 1 to 100 (%)")).toBeTruthy();
    expect(within(dialog).getByText("Nominal energy must be a number from 0 to 100000 Wh")).toBeTruthy();
    expect(calls.filter((c) => c.method === "PUT")).toHaveLength(0);

    await user.clear(threshold);
    await user.type(threshold, "75");
    await user.clear(within(dialog).getByLabelText("Nominal Wh"));
    await user.type(within(dialog).getByLabelText("Nominal Wh"), "720");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(1));
    const put = calls.find((c) => c.method === "PUT")!;
    expect(put.body).toEqual({ model: "Nova 48V", nominalWh: 720, ratedAh: 15, threshold: 75 });
    expect(put.key).toBeTruthy();
    await waitFor(() => expect(toasts).toHaveBeenCalledWith({ title: "Model Nova 48V saved" }));
  });
});
