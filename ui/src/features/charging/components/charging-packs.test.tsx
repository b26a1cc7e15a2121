// Charging under pack tracking (issue 36 item 2): the start form's count is the packs scanned
// in required mode and they go in the body; Mark Done may name the packs coming off the
// charger (checked against the session's count in the server's words), and a refused pack
// shows on its row inside the dialog, the list kept. The scan field is a stand-in; the server
// is a fetch stub that records each body.
import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import * as React from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfirmActionDialog, type ConfirmActionDialogProps } from "@/components/confirm-action-dialog";
import { ChargingSessionsTable } from "@/features/charging/components/charging-sessions-table";
import { StartChargingForm } from "@/features/charging/components/start-charging-form";
import { makeQueryClient } from "@/lib/query-client";

const h = vi.hoisted(() => ({ mode: "required" }));
vi.mock("@/features/scan/components/pack-scan-field", () => import("@/testing/pack-scan-field-stub"));
vi.mock("@/hooks/use-toast", () => ({ toast: vi.fn() }));
vi.mock("@/lib/state", () => ({ useAppState: () => ({ data: { settings: { pack_tracking: h.mode } } }) }));
vi.mock("@/components/lazy-confirm-action-dialog", () => ({
  LazyConfirmActionDialog: (p: ConfirmActionDialogProps) => (p.open ? React.createElement(ConfirmActionDialog, p) : null),
}));

vi.setConfig({ testTimeout: 30_000 });

type Answer = { status: number; body: unknown };
let posts: { url: string; body: unknown }[] = [];
let answers: Answer[] = [];

function serve(sessions: unknown[] = []) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === "POST") {
        posts.push({ url, body: JSON.parse(String(init.body ?? "{}")) });
        const a = answers.shift() ?? { status: 200, body: { success: true, message: "" } };
        return new Response(JSON.stringify(a.body), { status: a.status });
      }
      return new Response(JSON.stringify(url.includes("charging-sessions") ? sessions : {}), { status: 200 });
    }),
  );
}

function renderWith(ui: React.ReactElement) {
  return render(<QueryClientProvider client={makeQueryClient(false)}>{ui}</QueryClientProvider>);
}

async function typeSerials(group: HTMLElement, label: string, ...serials: string[]) {
  for (const s of serials) {
    await userEvent.type(within(group).getByLabelText("Type a serial"), s);
    await userEvent.click(within(group).getByRole("button", { name: `Add to ${label}` }));
  }
}

beforeEach(() => {
  posts = [];
  answers = [];
  sessionStorage.clear();
  // Radix Select measures and captures the pointer; jsdom has neither
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.body.removeAttribute("style");
});

describe("StartChargingForm", () => {
  it("required: the number of batteries is the packs scanned, read-only, and the packs are sent", async () => {
    h.mode = "required";
    serve();
    renderWith(<StartChargingForm waiting={5} />);
    const count = screen.getByLabelText("Number of Batteries");
    expect(count).toHaveProperty("readOnly", true);
    await typeSerials(screen.getByRole("group", { name: "Packs" }), "Packs", "SWB-000006", "SWB-000007");
    await waitFor(() => expect(count).toHaveProperty("value", "2"));
    await userEvent.click(screen.getByRole("combobox", { name: "Charger Type" }));
    await userEvent.click(await screen.findByRole("option", { name: "4A" }));
    await userEvent.click(screen.getByRole("button", { name: "Start Charging" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("SWB-000006, SWB-000007")).toBeTruthy();
    expect(within(dialog).queryByRole("button", { name: /Edit/ })).toBeNull();
    await userEvent.click(within(dialog).getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({ url: "/api/start-charging", body: { chargerType: "4A", quantity: 2, packs: ["SWB-000006", "SWB-000007"] } });
  });
  it("a refused pack closes the confirmation on its row; the other stays", async () => {
    h.mode = "optional";
    serve();
    answers.push({ status: 400, body: { status: 400, message: "Unknown pack: NOPE-1", code: "pack_unknown", data: { packs: [{ serial: "NOPE-1", code: "pack_unknown", message: "Unknown pack: NOPE-1" }] } } });
    renderWith(<StartChargingForm waiting={5} />);
    await userEvent.type(screen.getByLabelText("Number of Batteries"), "3");
    await typeSerials(screen.getByRole("group", { name: "Packs" }), "Packs", "SWB-000006", "NOPE-1");
    await userEvent.click(screen.getByRole("combobox", { name: "Charger Type" }));
    await userEvent.click(await screen.findByRole("option", { name: "5A" }));
    await userEvent.click(screen.getByRole("button", { name: "Start Charging" }));
    await userEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(posts[0]!.body).toEqual({ chargerType: "5A", quantity: 3, packs: ["SWB-000006", "NOPE-1"] });
    const rows = within(screen.getByRole("group", { name: "Packs" })).getAllByRole("listitem");
    expect(rows).toHaveLength(2);
    expect(within(rows[1]!).getByRole("note").textContent).toBe("Unknown pack: NOPE-1");
    expect(within(rows[0]!).queryByRole("note")).toBeNull();
  });
});

describe("Mark Done", () => {
  const session = { id: "sess1", quantity: 2, chargerType: "4A", startedAt: "2026-11-27T08:00:00Z", etaAt: "2026-11-27T10:00:00Z" };
  async function markDone() {
    await userEvent.click(await screen.findByRole("button", { name: /Mark Done/ }));
    return screen.findByRole("dialog");
  }
  it("none named: the body is empty (the session's packs travel); named: checked against the session, then sent", async () => {
    h.mode = "required";
    serve([session]);
    renderWith(<ChargingSessionsTable role="admin" />);
    let dialog = await markDone();
    await userEvent.click(within(dialog).getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({ url: "/api/admin/charge/sess1/complete", body: {} });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());

    dialog = await markDone();
    const group = within(dialog).getByRole("group", { name: "Packs off the charger" });
    await typeSerials(group, "Packs off the charger", "SWB-000006");
    await userEvent.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await within(dialog).findByText("Name exactly 2 packs for 2 batteries (1 named)")).toBeTruthy();
    expect(posts).toHaveLength(1);
    await typeSerials(group, "Packs off the charger", "SWB-000007");
    await userEvent.click(within(dialog).getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(posts).toHaveLength(2));
    expect(posts[1]!.body).toEqual({ packs: ["SWB-000006", "SWB-000007"] });
  });
  it("a refused pack shows on its row in the dialog; removed, the rest is sent", async () => {
    h.mode = "optional";
    serve([session]);
    answers.push({ status: 400, body: { status: 400, message: "Unknown pack: NOPE-2", code: "pack_unknown", data: { packs: [{ serial: "NOPE-2", code: "pack_unknown", message: "Unknown pack: NOPE-2" }] } } });
    renderWith(<ChargingSessionsTable role="admin" />);
    const dialog = await markDone();
    const group = within(dialog).getByRole("group", { name: "Packs off the charger" });
    await typeSerials(group, "Packs off the charger", "SWB-000006", "NOPE-2");
    await userEvent.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect((await within(group).findByRole("note")).textContent).toBe("Unknown pack: NOPE-2");
    expect(screen.getByRole("dialog")).toBeTruthy(); // kept open on the list
    await userEvent.click(within(group).getByRole("button", { name: "Remove NOPE-2" }));
    expect(within(group).queryByRole("note")).toBeNull();
    await userEvent.click(within(dialog).getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(posts).toHaveLength(2));
    expect(posts[1]!.body).toEqual({ packs: ["SWB-000006"] });
  });
});
