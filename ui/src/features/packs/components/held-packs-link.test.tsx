import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HeldPacksLink } from "@/features/packs/components/held-packs-link";
import { makeQueryClient } from "@/lib/query-client";

const toasts = vi.hoisted(() => vi.fn());
vi.mock("@/hooks/use-toast", () => ({ toast: toasts }));

const pack = (serial: string) => ({ id: serial, serial, state: "in_service", location: null, lastSeen: null, missing: false });

function renderWith(body: unknown, status = 200) {
  const fetch = vi.fn(async (_url: string) => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal("fetch", fetch);
  const qc = makeQueryClient(false);
  const view = render(
    <QueryClientProvider client={qc}>
      <MemoryRouter>
        <HeldPacksLink />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { fetch, qc, view };
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

describe("HeldPacksLink", () => {
  it("names the packs the driver holds and links to My packs", async () => {
    const { fetch } = renderWith({ packs: ["SWB-000001", "SWB-000002", "SWB-000003"].map(pack), total: 3, page: 1, perPage: 50, counts: {}, missingDays: 7 });
    const link = await screen.findByRole("link", { name: /^Packs you hold: 3/ });
    expect(link.getAttribute("href")).toBe("/packs");
    expect(link.textContent).toContain("SWB-000001, SWB-000002, SWB-000003");
    expect(link.textContent).not.toContain("more");
    expect(String(fetch.mock.calls[0]![0])).toMatch(/\/api\/packs$/);
  });
  it("names the first three and counts the rest", async () => {
    renderWith({ packs: ["A-1", "A-2", "A-3", "A-4", "A-5"].map(pack), total: 5, page: 1, perPage: 50, counts: {}, missingDays: 7 });
    const link = await screen.findByRole("link", { name: /^Packs you hold: 5/ });
    expect(link.textContent).toContain("A-1, A-2, A-3 +2 more");
  });
  it("renders nothing when the driver holds no named pack", async () => {
    const { qc } = renderWith({ packs: [], total: 0, page: 1, perPage: 50, counts: {}, missingDays: 7 });
    await waitFor(() => expect(qc.getQueryState(["/api/packs"])?.status).toBe("success"));
    expect(screen.queryByRole("link")).toBeNull();
  });
  it("shows nothing, and no data-load toast, when the list cannot be loaded", async () => {
    const { qc } = renderWith({ status: 500, message: "boom", data: {} }, 500);
    await waitFor(() => expect(qc.getQueryState(["/api/packs"])?.status).toBe("error"));
    expect(screen.queryByRole("link")).toBeNull();
    expect(toasts).not.toHaveBeenCalled();
  });
});

describe("HeldPacksLink with a recalled pack", () => {
  it("names it first and asks for it back", async () => {
    const packs = [pack("A-1"), pack("A-2"), pack("A-3"), { ...pack("A-4"), state: "quarantined", recall: { id: "r1", reason: "Lot overheats" } }];
    renderWith({ packs, total: 4, page: 1, perPage: 50, counts: {}, missingDays: 7 });
    const link = await screen.findByRole("link", { name: /^Packs you hold: 4/ });
    expect(link.textContent).toContain("A-4, A-1, A-2 +1 more");
    expect(link.textContent).toContain("A-4: recalled — bring it to the bay");
  });
  it("counts several", async () => {
    const packs = [pack("A-1"), { ...pack("A-2"), state: "quarantined" }, { ...pack("A-3"), state: "quarantined", recall: { id: "r1", reason: "x" } }];
    renderWith({ packs, total: 3, page: 1, perPage: 50, counts: {}, missingDays: 7 });
    const link = await screen.findByRole("link", { name: /^Packs you hold: 3/ });
    expect(link.textContent).toContain("2 packs recalled — bring them to the bay");
  });
});
