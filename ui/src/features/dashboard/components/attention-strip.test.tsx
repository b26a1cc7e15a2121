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

const NONE: Attention = {
  chargingDue: { sessions: 0, batteries: 0 },
  pendingApprovals: 0,
  failedPdfs: 0,
  damageReports: 0,
  quarantinedPacks: 0,
  missingPacks: 0,
  packDiscrepancies: 0,
};

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
      attentionItems({ ...NONE, chargingDue: { sessions: 1, batteries: 1 }, pendingApprovals: 1, failedPdfs: 1 }).map((i) => [i.text, i.detail ?? "", i.to]),
    ).toEqual([
      ["1 charging session due", "1 battery ready to take off the chargers", "/admin-charging"],
      ["1 user waiting for approval", "", "/admin-users"],
      ["1 agreement PDF failed", "Retry PDF in Signed Agreements", "/admin-system#signed-agreements"],
    ]);
    expect(attentionItems({ ...NONE, pendingApprovals: 3 }).map((i) => i.text)).toEqual(["3 users waiting for approval"]);
  });

  it("marks batteries moved without packs in required mode for admins", () => {
    expect(attentionItems({ ...NONE, unnamedBatteries: 2 }).map((i) => [i.text, i.to])).toEqual([["2 batteries moved without packs", "/packs"]]);
    expect(attentionItems({ ...NONE, unnamedBatteries: 1 }).map((i) => i.text)).toEqual(["1 battery moved without packs"]);
  });

  it("counts the worn packs and links to the list filtered by worn", () => {
    expect(attentionItems({ ...NONE, wornPacks: 3, missingPacks: 1, packDiscrepancies: 1 }).map((i) => [i.text, i.detail ?? "", i.to])).toEqual([
      ["1 pack missing", "Not seen for days: see their last holder", "/packs?missing=1"],
      ["3 worn packs", "Under their model's health threshold or losing it fast", "/packs?worn=1"],
      ["1 pack discrepancy this week", "Scanned where the records did not have them", "/packs"],
    ]);
    expect(attentionItems({ ...NONE, wornPacks: 1 }).map((i) => i.text)).toEqual(["1 worn pack"]);
    expect(attentionItems({ ...NONE, wornPacks: 0 })).toEqual([]);
  });

  it("puts damaged packs first and the other pack counts last, each to its filtered list", () => {
    expect(
      attentionItems({ ...NONE, pendingApprovals: 1, damageReports: 1, quarantinedPacks: 7, missingPacks: 3, packDiscrepancies: 1 }).map((i) => [
        i.text,
        i.detail ?? "",
        i.to,
      ]),
    ).toEqual([
      ["1 damaged pack reported", "Quarantined: decide maintenance, back in service or retired", "/packs?state=quarantined"],
      ["1 user waiting for approval", "", "/admin-users"],
      ["6 packs in quarantine", "Besides the damaged ones: recalls and checks", "/packs?state=quarantined"],
      ["3 packs missing", "Not seen for days: see their last holder", "/packs?missing=1"],
      ["1 pack discrepancy this week", "Scanned where the records did not have them", "/packs"],
    ]);
    // quarantined with no damage report: the recall's packs alone
    expect(attentionItems({ ...NONE, quarantinedPacks: 1 }).map((i) => [i.text, i.detail])).toEqual([
      ["1 pack in quarantine", "Recalls and checks waiting for a decision"],
    ]);
  });
});

describe("AttentionStrip", () => {
  it("links each count to where it is handled", async () => {
    const fetch = renderWith({ ...NONE, chargingDue: { sessions: 2, batteries: 8 }, pendingApprovals: 3, failedPdfs: 2 });
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
