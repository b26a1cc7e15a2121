import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ImportReadingsDialog, previewText } from "@/features/packs/components/import-readings-dialog";
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

type Call = { url: string; body: { csv: string; dryRun: boolean }; key: string | null };

/** serve answers each POST with the next of answers ([status, body]) and records the calls. */
function serve(...answers: [number, unknown][]) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, body: JSON.parse(String(init.body)), key: new Headers(init.headers).get("Idempotency-Key") });
      const [status, body] = answers[Math.min(calls.length, answers.length) - 1]!;
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return calls;
}

async function open() {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={makeQueryClient(false)}>
      <MemoryRouter>
        <ImportReadingsDialog />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  await user.click(screen.getByRole("button", { name: "Import readings" }));
  const dialog = await screen.findByRole("dialog", { name: "Import readings" });
  return { user, dialog };
}

const CSV = "serial,time,source,soh\nSWB-000001,2026-11-20 10:00,bms,72\nSWB-000002,2026-11-20 10:00,bms,abc\n";

describe("ImportReadingsDialog", () => {
  it("shows the expected header, previews as the CSV changes and names every bad row with its line", async () => {
    const calls = serve([
      200,
      {
        rows: 2,
        packs: 2,
        errors: [
          { line: 3, serial: "SWB-000002", message: "soh must be a number from 0 to 100" },
          { line: 3, serial: "SWB-000002", message: "Unknown pack SWB-000002" },
        ],
      },
    ]);
    const { user, dialog } = await open();
    expect(within(dialog).getByText("serial,time,source").tagName).toBe("CODE");
    expect(within(dialog).getByText(/Optional: energyWh, socFrom, socTo, fullAh, designAh, fullWh, designWh, cycles, soh, maxTempC, faults/)).toBeTruthy();
    await user.click(within(dialog).getByLabelText("Or paste the CSV"));
    await user.paste(CSV);
    // the live preview: a dry run, keyed, nothing written
    expect((await within(dialog).findByRole("status")).textContent).toBe("1 row has problems — fix it and the preview follows. Nothing was imported.");
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("/api/admin/packs/readings");
    expect(calls[0]!.body).toEqual({ csv: CSV, dryRun: true });
    expect(calls[0]!.key).toBeTruthy();
    const rows = within(within(dialog).getByRole("region", { name: "Rows with problems" })).getAllByRole("row");
    expect(rows.map((r) => r.textContent)).toEqual([
      "LineSerialProblem",
      "3SWB-000002soh must be a number from 0 to 100",
      "3SWB-000002Unknown pack SWB-000002",
    ]);
    expect(within(dialog).getByRole("button", { name: "Apply" }).hasAttribute("disabled")).toBe(true);
  });

  it("applies a clean preview once, keyed, and names the packs worn after it", async () => {
    const calls = serve(
      [200, { rows: 2, packs: 2, errors: [] }],
      [200, { success: true, message: "2 readings imported for 2 packs", rows: 2, packs: 2, worn: ["SWB-000001"] }],
    );
    const { user, dialog } = await open();
    await user.click(within(dialog).getByLabelText("Or paste the CSV"));
    await user.paste(CSV);
    expect((await within(dialog).findByRole("status")).textContent).toBe("2 readings for 2 packs can be imported.");
    await user.click(within(dialog).getByRole("button", { name: "Apply 2 readings" }));
    expect((await within(dialog).findByRole("status")).textContent).toBe("2 readings imported for 2 packs");
    expect(calls[1]!.body).toEqual({ csv: CSV, dryRun: false });
    expect(calls[1]!.key).not.toBe(calls[0]!.key);
    const worn = within(dialog).getByRole("list", { name: "Worn packs" });
    expect(within(worn).getByRole("link", { name: "SWB-000001" }).getAttribute("href")).toBe("/packs/SWB-000001");
    expect(within(dialog).getByRole("link", { name: "See worn packs" }).getAttribute("href")).toBe("/packs?worn=1");
  });

  it("shows the rows a refused import names, and that nothing was written", async () => {
    serve(
      [200, { rows: 1, packs: 1, errors: [] }],
      [400, { status: 400, message: "1 row cannot be imported", code: "validation_failed", data: { rows: [{ line: 2, serial: "SWB-000001", message: "Time is in the future" }] } }],
    );
    const { user, dialog } = await open();
    await user.click(within(dialog).getByLabelText("Or paste the CSV"));
    await user.paste("serial,time,source\nSWB-000001,2099-01-01 10:00,bms\n");
    await user.click(await within(dialog).findByRole("button", { name: "Apply 1 reading" }));
    await waitFor(() => expect(within(dialog).getByRole("status").textContent).toBe("The import was refused: 1 row has problems. Nothing was imported."));
    expect(within(dialog).getByRole("row", { name: /^2 SWB-000001/ }).textContent).toBe("2SWB-000001Time is in the future");
    expect(toasts).toHaveBeenCalledWith(expect.objectContaining({ title: "Import failed", description: "1 row cannot be imported" }));
    expect(within(dialog).getByRole("button", { name: "Apply" }).hasAttribute("disabled")).toBe(true);
  });
});

describe("previewText", () => {
  it("counts the bad rows once each, however many problems they have", () => {
    expect(previewText({ rows: 5, packs: 2, errors: [] })).toBe("5 readings for 2 packs can be imported.");
    expect(previewText({ rows: 1, packs: 1, errors: [] })).toBe("1 reading for 1 pack can be imported.");
    const e = (line: number) => ({ line, serial: "X", message: "bad" });
    expect(previewText({ rows: 9, packs: 3, errors: [e(2), e(2), e(5)] })).toBe("2 rows have problems — fix them and the preview follows. Nothing was imported.");
  });
});
