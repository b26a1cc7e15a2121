import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { StocktakePage } from "@/features/stocktake/components/stocktake-page";
import { saveDraft } from "@/features/stocktake/utils/draft";
import { makeQueryClient } from "@/lib/query-client";

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  document.body.innerHTML = "";
});

const READY = { key: "ready", kind: "ready", label: "Ready" };
const SENT =
  "Pack SWB-000003 was sent to Berlin and cannot be counted here: if it never left, delete its send on the Activity page; if it left, leave it out of the count";

/** PREVIEW is the server's preview of the ready shelf with SWB-000003 (sent to Berlin) and SWB-000004 (records: waiting) scanned. */
const PREVIEW = {
  success: true,
  message: "Stocktake of the ready shelf: 1 found, 0 missing, 2 unexpected, 1 cannot be counted here",
  place: "ready",
  applied: false,
  counts: { scanned: 3, expected: 1, found: 1, missing: 0, unexpected: 2, wrongPlace: 0, unknown: 0, before: 1, after: 3, refused: 1 },
  found: [{ serial: "SWB-000001", state: "in_service", from: READY, lastSeenAt: "" }],
  missing: [],
  unexpected: [
    { serial: "SWB-000003", state: "in_transit", from: null, lastSeenAt: "", refusal: { code: "pack_in_transit", message: SENT } },
    { serial: "SWB-000004", state: "in_service", from: { key: "waiting", kind: "waiting", label: "Waiting" }, lastSeenAt: "" },
  ],
  wrongPlace: [],
  unknown: [],
  movement: null,
};

/** renderPage shows the page with serials scanned (the kept draft) and the server answering preview. */
function renderPage(serials: string[], preview: object, url = "/packs/stocktake") {
  saveDraft("u1", { place: "ready", serials });
  vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify(preview), { status: 200 })));
  render(
    <QueryClientProvider client={makeQueryClient(false)}>
      <MemoryRouter initialEntries={[url]}>
        <StocktakePage userId="u1" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("StocktakePage's preview", () => {
  it("shows a pack sent to another city as refused, in Apply's words, and does not offer Apply", async () => {
    renderPage(["SWB-000001", "SWB-000003", "SWB-000004"], PREVIEW);
    const refused = await screen.findByRole("list", { name: "Cannot be counted here" });
    const row = within(refused).getByRole("listitem");
    expect(within(row).getByText("SWB-000003")).toBeTruthy();
    expect(within(row).getByText(SENT)).toBeTruthy();
    // the other unexpected pack is still "moved here"; the refused one is not among them
    const unexpected = screen.getByRole("list", { name: "Unexpected" });
    expect(within(unexpected).getAllByRole("listitem")).toHaveLength(1);
    expect(within(unexpected).queryByText("SWB-000003")).toBeNull();
    await vi.waitFor(() => expect((screen.getByRole("button", { name: "Apply" }) as HTMLButtonElement).disabled).toBe(true));
  });

  it("offers Apply once nothing is refused", async () => {
    renderPage(["SWB-000001", "SWB-000004"], {
      ...PREVIEW,
      counts: { ...PREVIEW.counts, scanned: 2, unexpected: 1, refused: 0 },
      unexpected: [PREVIEW.unexpected[1]],
    });
    await screen.findByRole("list", { name: "Unexpected" });
    expect(screen.queryByRole("list", { name: "Cannot be counted here" })).toBeNull();
    await vi.waitFor(() => expect((screen.getByRole("button", { name: "Apply" }) as HTMLButtonElement).disabled).toBe(false));
  });

  it("keeps the keyboard's place when a refused pack is removed: the next row's Remove, then the scan field", async () => {
    const other = { ...PREVIEW.unexpected[0], serial: "SWB-000005", refusal: { code: "pack_in_transit", message: SENT.replace("000003", "000005") } };
    renderPage(["SWB-000001", "SWB-000003", "SWB-000005"], { ...PREVIEW, unexpected: [PREVIEW.unexpected[0], other] });
    // the server answers for the serials asked: a removed pack leaves the preview
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init?: RequestInit) => {
        const asked: string[] = JSON.parse(String(init?.body ?? "{}")).serials ?? [];
        const unexpected = [PREVIEW.unexpected[0]!, other].filter((p) => asked.includes(p.serial));
        return new Response(JSON.stringify({ ...PREVIEW, unexpected }), { status: 200 });
      }),
    );
    const first = await screen.findByRole("button", { name: "Remove SWB-000003" });
    first.focus();
    fireEvent.click(first);
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Remove SWB-000005" }));
    await vi.waitFor(() => expect(screen.queryByRole("button", { name: "Remove SWB-000003" })).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Remove SWB-000005" }));
    fireEvent.click(screen.getByRole("button", { name: "Remove SWB-000005" }));
    // the section's last row: the focus goes to the serial field, not to the page
    expect(document.activeElement?.tagName).toBe("INPUT");
    expect(document.activeElement?.getAttribute("type")).not.toBe("file");
  });

  it("opens on the whole bay from the System page's Count the bay link (?place=bay)", async () => {
    renderPage([], { ...PREVIEW, place: "bay", found: [], unexpected: [] }, "/packs/stocktake?place=bay");
    await vi.waitFor(() => expect(JSON.parse(localStorage.getItem(Object.keys(localStorage)[0] ?? "") ?? "{}").place).toBe("bay"));
    await vi.waitFor(() => expect(vi.mocked(fetch).mock.calls.some((c) => JSON.parse(String((c[1] as RequestInit | undefined)?.body ?? "{}")).place === "bay")).toBe(true));
    expect(screen.getByRole("combobox", { name: "Place" }).textContent).toContain("Whole bay");
  });
});
