// The driver's pickup and dropoff under pack tracking (issue 36 item 2): in required mode the
// count is the number of packs scanned; in optional mode the count is typed and the packs go
// along when any; what is queued carries them; a refusal naming a pack shows on its row, the
// list kept, and goes once the pack is removed. The scan field is a stand-in (its own tests
// are the scan feature's); the outbox is a spy.
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import * as React from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfirmActionDialog, type ConfirmActionDialogProps } from "@/components/confirm-action-dialog";
import { DriverOperationsPanel } from "@/features/driver-ops/components/driver-operations-panel";
import { ApiError } from "@/lib/api-client";

type RunOpts = { key?: string; onSent?: (a: unknown) => void; onQueued?: () => void; onRefused?: (e: unknown) => void };
const h = vi.hoisted(() => ({ mode: "off", run: vi.fn<(kind: string, body: Record<string, unknown>, opts: RunOpts) => Promise<unknown>>() }));

vi.mock("@/features/scan/components/pack-scan-field", () => import("@/testing/pack-scan-field-stub"));
vi.mock("@/hooks/use-toast", () => ({ toast: vi.fn() }));
vi.mock("@/lib/state", () => ({ useAppState: () => ({ data: { settings: { pack_tracking: h.mode } } }) }));
vi.mock("@/features/outbox/hooks/use-submit", () => ({
  useOutboxSubmit: () => ({ run: h.run, isPending: false, isError: false, error: null, reset: () => undefined }),
}));
vi.mock("@/components/lazy-confirm-action-dialog", () => ({
  LazyConfirmActionDialog: (p: ConfirmActionDialogProps) => (p.open ? React.createElement(ConfirmActionDialog, p) : null),
}));

/** refusal is a pack refusal as the server answers it: the field, and the pack in data.packs. */
const refusal = (code: string, field: string, message: string, serial: string) =>
  new ApiError(400, JSON.stringify({ status: 400, message, code, data: { [field]: { code: "validation_invalid", message }, packs: [{ serial, code, message }] } }));

function pickupForm() {
  return screen.getByRole("form", { name: "Battery Pickup" });
}
function dropoffForm() {
  return screen.getByRole("form", { name: "Battery Dropoff" });
}

async function scan(form: HTMLElement, list: string, ...serials: string[]) {
  const group = within(form).getByRole("group", { name: list });
  for (const s of serials) {
    await userEvent.type(within(group).getByLabelText("Type a serial"), s);
    await userEvent.click(within(group).getByRole("button", { name: `Add to ${list}` }));
  }
}

async function confirm() {
  await userEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Confirm" }));
}

beforeEach(() => {
  h.run.mockReset();
  h.run.mockImplementation(async (_k, _b, opts) => {
    opts.onQueued?.();
    return { status: "queued" };
  });
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  document.body.removeAttribute("style"); // a Radix dialog left open sets pointer-events: none
});

vi.setConfig({ testTimeout: 30_000 });

describe("pickup, tracking required", () => {
  beforeEach(() => {
    h.mode = "required";
  });
  it("the quantity is the packs scanned, read-only; the queued pickup carries them and the list empties", async () => {
    render(<DriverOperationsPanel />);
    const form = pickupForm();
    const quantity = within(form).getByLabelText("Quantity");
    expect(quantity).toHaveProperty("readOnly", true);
    await scan(form, "Packs", "swb-000001", "SWB-000002", "SWB-000003");
    await waitFor(() => expect(quantity).toHaveProperty("value", "3"));
    await userEvent.type(within(form).getByLabelText("Did you plug in dead batteries? (Required)"), "Y");
    await userEvent.click(within(form).getByRole("button", { name: "Record Pickup" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("SWB-000001, SWB-000002, SWB-000003")).toBeTruthy();
    expect(within(dialog).queryByRole("button", { name: /Edit/ })).toBeNull(); // the count is the list: no editing it there
    await confirm();
    expect(h.run).toHaveBeenCalledTimes(1);
    expect(h.run.mock.calls[0]![0]).toBe("pickup");
    expect(h.run.mock.calls[0]![1]).toEqual({ quantity: 3, notes: "Y", packs: ["SWB-000001", "SWB-000002", "SWB-000003"] });
    await waitFor(() => expect(within(pickupForm()).queryAllByRole("listitem")).toHaveLength(0));
  });
  it("with none scanned nothing is sent: the quantity's own message", async () => {
    render(<DriverOperationsPanel />);
    const form = pickupForm();
    await userEvent.type(within(form).getByLabelText("Did you plug in dead batteries? (Required)"), "Y");
    await userEvent.click(within(form).getByRole("button", { name: "Record Pickup" }));
    expect(await within(form).findByText("Quantity is required")).toBeTruthy();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(h.run).not.toHaveBeenCalled();
  });
  it("a refused pack shows its reason on its row, the list kept; removed, the reason goes and the pickup is sent without it", async () => {
    h.run.mockImplementationOnce(async (_k, _b, opts) => {
      const error = refusal("pack_unknown", "packs", "Unknown pack: SWB-999999", "SWB-999999");
      opts.onRefused?.(error);
      return { status: "refused", error };
    });
    render(<DriverOperationsPanel />);
    const form = pickupForm();
    await scan(form, "Packs", "SWB-000001", "SWB-999999");
    await userEvent.type(within(form).getByLabelText("Did you plug in dead batteries? (Required)"), "Y");
    await userEvent.click(within(form).getByRole("button", { name: "Record Pickup" }));
    await confirm();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull()); // back on the list
    const rows = within(within(form).getByRole("group", { name: "Packs" })).getAllByRole("listitem");
    expect(rows.map((r) => r.textContent)).toEqual(["SWB-000001Remove SWB-000001", "SWB-999999Unknown pack: SWB-999999Remove SWB-999999"]);
    await userEvent.click(within(form).getByRole("button", { name: "Remove SWB-999999" }));
    expect(within(form).queryByRole("note")).toBeNull();
    await userEvent.click(within(form).getByRole("button", { name: "Record Pickup" }));
    await confirm();
    expect(h.run.mock.calls[1]![1]).toEqual({ quantity: 1, notes: "Y", packs: ["SWB-000001"] });
  });
});

describe("pickup, tracking optional", () => {
  beforeEach(() => {
    h.mode = "optional";
  });
  it("the scans set the count (never fewer batteries than packs); typed down below them, refused first in the server's words", async () => {
    render(<DriverOperationsPanel />);
    const form = pickupForm();
    const quantity = within(form).getByLabelText("Quantity");
    await scan(form, "Packs", "SWB-000001", "SWB-000002");
    await waitFor(() => expect((quantity as HTMLInputElement).value).toBe("2")); // the driver types no number the scans gave
    await userEvent.clear(quantity);
    await userEvent.type(quantity, "2");
    await scan(form, "Packs", "SWB-000003");
    await waitFor(() => expect((quantity as HTMLInputElement).value).toBe("3"));
    await userEvent.clear(quantity);
    await userEvent.type(quantity, "2");
    await userEvent.type(within(form).getByLabelText("Did you plug in dead batteries? (Required)"), "N");
    await userEvent.click(within(form).getByRole("button", { name: "Record Pickup" }));
    expect(await within(form).findByText("Name at most 2 packs for 2 batteries (3 named)")).toBeTruthy();
    expect(screen.queryByRole("dialog")).toBeNull();
  });
  it("a pack the rules refuse is red on its row, not counted, named in the Confirm dialog and not sent", async () => {
    render(<DriverOperationsPanel />);
    const form = pickupForm();
    await scan(form, "Packs", "SWB-000001", "QUAR-7");
    const why = "Pack QUAR-7 is quarantined and cannot be handed out";
    expect(within(form).getByRole("note").textContent).toBe(why);
    await waitFor(() => expect((within(form).getByLabelText("Quantity") as HTMLInputElement).value).toBe("1"));
    await userEvent.type(within(form).getByLabelText("Did you plug in dead batteries? (Required)"), "N");
    await userEvent.click(within(form).getByRole("button", { name: "Record Pickup" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("SWB-000001")).toBeTruthy();
    expect(within(dialog).getByRole("alert").textContent).toContain(why);
    await confirm();
    expect(h.run.mock.calls[0]![1]).toEqual({ quantity: 1, notes: "N", packs: ["SWB-000001"] });
  });
  it("fewer packs than batteries go along; none scanned, the body is as it always was", async () => {
    render(<DriverOperationsPanel />);
    const form = pickupForm();
    await userEvent.type(within(form).getByLabelText("Quantity"), "4");
    await scan(form, "Packs", "SWB-000001");
    await userEvent.type(within(form).getByLabelText("Did you plug in dead batteries? (Required)"), "N");
    await userEvent.click(within(form).getByRole("button", { name: "Record Pickup" }));
    await confirm();
    expect(h.run.mock.calls[0]![1]).toEqual({ quantity: 4, notes: "N", packs: ["SWB-000001"] });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await userEvent.type(within(form).getByLabelText("Quantity"), "2");
    await userEvent.type(within(form).getByLabelText("Did you plug in dead batteries? (Required)"), "N");
    await userEvent.click(within(form).getByRole("button", { name: "Record Pickup" }));
    await confirm();
    expect(h.run.mock.calls[1]![1]).toEqual({ quantity: 2, notes: "N" });
  });
});

describe("dropoff", () => {
  it("required: good and dead are the packs scanned apart, each list sent under its field", async () => {
    h.mode = "required";
    render(<DriverOperationsPanel />);
    const form = dropoffForm();
    await scan(form, "Good packs", "SWB-000001", "SWB-000002");
    await scan(form, "Dead packs", "SWB-000009");
    await waitFor(() => expect(within(form).getByLabelText("Good Batteries")).toHaveProperty("value", "2"));
    expect(within(form).getByLabelText("Dead Batteries")).toHaveProperty("value", "1");
    await userEvent.type(within(form).getByLabelText("Notes (Required)"), "end of shift");
    await userEvent.click(within(form).getByRole("button", { name: "Record Dropoff" }));
    await confirm();
    expect(h.run.mock.calls[0]![1]).toEqual({
      goodBatteries: 2,
      deadBatteries: 1,
      notes: "end of shift",
      goodPacks: ["SWB-000001", "SWB-000002"],
      deadPacks: ["SWB-000009"],
    });
  });
  it("a refusal of a dead pack shows on the dead list's row only", async () => {
    h.mode = "optional";
    h.run.mockImplementationOnce(async (_k, _b, opts) => {
      opts.onRefused?.(new ApiError(409, JSON.stringify({ status: 409, message: "Pack SWB-000002 is quarantined and cannot be handed out", code: "pack_quarantined", data: { deadPacks: {}, packs: [{ serial: "SWB-000002", code: "pack_quarantined", message: "Pack SWB-000002 is quarantined and cannot be handed out" }] } })));
      return { status: "refused" };
    });
    render(<DriverOperationsPanel />);
    const form = dropoffForm();
    await userEvent.type(within(form).getByLabelText("Good Batteries"), "1");
    await userEvent.type(within(form).getByLabelText("Dead Batteries"), "1");
    await scan(form, "Good packs", "SWB-000001");
    await scan(form, "Dead packs", "SWB-000002");
    await userEvent.type(within(form).getByLabelText("Notes (Required)"), "ok");
    await userEvent.click(within(form).getByRole("button", { name: "Record Dropoff" }));
    await confirm();
    const dead = within(form).getByRole("group", { name: "Dead packs" });
    expect((await within(dead).findByRole("note")).textContent).toBe("Pack SWB-000002 is quarantined and cannot be handed out");
    expect(within(within(form).getByRole("group", { name: "Good packs" })).queryByRole("note")).toBeNull();
  });
});

describe("tracking off", () => {
  it("no scan field; the bodies are today's", async () => {
    h.mode = "off";
    render(<DriverOperationsPanel />);
    expect(screen.queryByRole("group", { name: "Packs" })).toBeNull();
    expect(screen.queryByRole("group", { name: "Good packs" })).toBeNull();
    const form = pickupForm();
    await userEvent.type(within(form).getByLabelText("Quantity"), "2");
    await userEvent.type(within(form).getByLabelText("Did you plug in dead batteries? (Required)"), "Y");
    await userEvent.click(within(form).getByRole("button", { name: "Record Pickup" }));
    await confirm();
    expect(h.run.mock.calls[0]![1]).toEqual({ quantity: 2, notes: "Y" });
  });
});
