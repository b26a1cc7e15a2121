import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Attention } from "@/features/dashboard/api/get-attention";
import { AttentionStrip, NOTHING_NEEDS_ATTENTION, attentionItems } from "@/features/dashboard/components/attention-strip";
import { makeQueryClient } from "@/lib/query-client";

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

const NONE: Attention = { chargingDue: { sessions: 0, batteries: 0 }, pendingApprovals: 0, failedPdfs: 0 };

function renderWith(answer: Attention) {
  const fetch = vi.fn(async (_url: string) => new Response(JSON.stringify(answer), { status: 200, headers: { "Content-Type": "application/json" } }));
  vi.stubGlobal("fetch", fetch);
  render(
    <QueryClientProvider client={makeQueryClient(false)}>
      <MemoryRouter>
        <AttentionStrip />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return fetch;
}

describe("attentionItems", () => {
  it("gives one line per kind that has something, singular or plural", () => {
    expect(attentionItems(NONE)).toEqual([]);
    expect(
      attentionItems({ chargingDue: { sessions: 1, batteries: 1 }, pendingApprovals: 1, failedPdfs: 1 }).map((i) => [i.text, i.detail ?? "", i.to]),
    ).toEqual([
      ["1 charging session due", "1 battery ready to take off the chargers", "/admin-charging"],
      ["1 user waiting for approval", "", "/admin-users"],
      ["1 agreement PDF failed", "Retry PDF in Signed Agreements", "/admin-system#signed-agreements"],
    ]);
    expect(attentionItems({ ...NONE, pendingApprovals: 3 }).map((i) => i.text)).toEqual(["3 users waiting for approval"]);
  });
});

describe("AttentionStrip", () => {
  it("links each count to where it is handled", async () => {
    const fetch = renderWith({ chargingDue: { sessions: 2, batteries: 8 }, pendingApprovals: 3, failedPdfs: 2 });
    const strip = await screen.findByRole("region", { name: "Needs attention" });
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/admin/attention");
    const links = within(strip).getAllByRole("link");
    expect(links.map((l) => [l.textContent, l.getAttribute("href")])).toEqual([
      ["2 charging sessions due8 batteries ready to take off the chargers", "/admin-charging"],
      ["3 users waiting for approval", "/admin-users"],
      ["2 agreement PDFs failedRetry PDF in Signed Agreements", "/admin-system#signed-agreements"],
    ]);
    expect(screen.queryByText(NOTHING_NEEDS_ATTENTION)).toBeNull();
  });

  it("shows only the kinds that have something", async () => {
    renderWith({ ...NONE, failedPdfs: 1 });
    const strip = await screen.findByRole("region", { name: "Needs attention" });
    expect(within(strip).getAllByRole("link").map((l) => l.getAttribute("href"))).toEqual(["/admin-system#signed-agreements"]);
  });

  it("is one quiet line, with no links, when nothing needs action", async () => {
    renderWith(NONE);
    expect(await screen.findByText(NOTHING_NEEDS_ATTENTION)).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Needs attention" })).toBeNull();
    expect(screen.queryAllByRole("link")).toEqual([]);
  });
});
