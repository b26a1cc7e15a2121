// Custody under pack tracking (issue 36 item 2): the manual assignment, the driver swap or
// exchange and the dead-battery transfer each scan their packs. Required: the counts are the
// packs scanned, read-only; each list travels under its request field; a refusal naming a
// pack of one list shows on that row only, the lists kept. The scan field is a stand-in; the
// server is a fetch stub that records each body.
import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type * as React from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DeadBatteryTransferCard } from "@/features/custody/components/dead-battery-transfer-card";
import { DriverSwapCard } from "@/features/custody/components/driver-swap-card";
import { ManualAssignmentForm } from "@/features/custody/components/manual-assignment-form";
import { makeQueryClient } from "@/lib/query-client";

const h = vi.hoisted(() => ({ mode: "required" }));
vi.mock("@/features/scan/components/pack-scan-field", () => import("@/testing/pack-scan-field-stub"));
vi.mock("@/hooks/use-toast", () => ({ toast: vi.fn() }));
vi.mock("@/lib/state", () => ({ useAppState: () => ({ data: { settings: { pack_tracking: h.mode } } }) }));

vi.setConfig({ testTimeout: 40_000 });

const ANN = { id: "ann", email: "ann@example.com", firstName: "Ann", lastName: "Able", role: "driver", isApproved: "approved" };
const BOB = { id: "bob", email: "bob@example.com", firstName: "Bob", lastName: "Baker", role: "driver", isApproved: "approved" };
const HOLDERS = [ANN, BOB].map((u) => ({ user: u, total: 5, assignments: [] }));

let posts: { url: string; body: unknown }[] = [];
let answers: { status: number; body: unknown }[] = [];

function serve() {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === "POST") {
        posts.push({ url, body: JSON.parse(String(init.body ?? "{}")) });
        const a = answers.shift() ?? { status: 200, body: { success: true, message: "" } };
        return new Response(JSON.stringify(a.body), { status: a.status });
      }
      const body = url.includes("/api/admin/users") ? [ANN, BOB] : url.includes("battery-holders") ? HOLDERS : {};
      return new Response(JSON.stringify(body), { status: 200 });
    }),
  );
}

function renderWith(ui: React.ReactElement) {
  return render(<QueryClientProvider client={makeQueryClient(false)}>{ui}</QueryClientProvider>);
}

async function choose(name: string, option: RegExp) {
  await userEvent.click(screen.getByRole("combobox", { name }));
  await userEvent.click(await screen.findByRole("option", { name: option }));
}

async function typeSerials(label: string, ...serials: string[]) {
  const group = screen.getByRole("group", { name: label });
  for (const s of serials) {
    await userEvent.type(within(group).getByLabelText("Type a serial"), s);
    await userEvent.click(within(group).getByRole("button", { name: `Add to ${label}` }));
  }
}

async function confirm() {
  await userEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Confirm" }));
}

beforeEach(() => {
  posts = [];
  answers = [];
  sessionStorage.clear();
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
  serve();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.body.removeAttribute("style");
});

describe("ManualAssignmentForm", () => {
  it("required: the quantity is the packs scanned and they are sent", async () => {
    h.mode = "required";
    renderWith(<ManualAssignmentForm ready={10} />);
    await waitFor(() => expect(screen.getByRole("combobox", { name: "Driver" }).textContent).toContain("Select driver"));
    await choose("Driver", /^Ann Able/);
    await choose("Assignment Type", /^Home Charger/);
    const quantity = screen.getByLabelText("Quantity");
    expect(quantity).toHaveProperty("readOnly", true);
    await typeSerials("Packs", "SWB-000001", "SWB-000002", "SWB-000003");
    await waitFor(() => expect(quantity).toHaveProperty("value", "3"));
    await userEvent.click(screen.getByRole("button", { name: "Assign Batteries" }));
    await confirm();
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({
      url: "/api/admin/assignments",
      body: { userId: "ann", quantity: 3, assignmentType: "home_charger", notes: "", packs: ["SWB-000001", "SWB-000002", "SWB-000003"] },
    });
  });
});

describe("DeadBatteryTransferCard", () => {
  it("required: the dead count is the dead packs scanned, sent as deadPacks", async () => {
    h.mode = "required";
    renderWith(<DeadBatteryTransferCard />);
    await waitFor(() => expect(screen.getByRole("combobox", { name: "From Driver" })).toBeTruthy());
    await choose("From Driver", /^Ann Able/);
    await choose("To Driver", /^Bob Baker/);
    await typeSerials("Dead packs", "SWB-000008", "SWB-000009");
    await waitFor(() => expect(screen.getByLabelText("Dead Batteries")).toHaveProperty("value", "2"));
    await userEvent.click(screen.getByRole("button", { name: "Transfer Dead Batteries" }));
    await confirm();
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toEqual({ fromUserId: "ann", toUserId: "bob", deadBatteries: 2, notes: "", deadPacks: ["SWB-000008", "SWB-000009"] });
  });
});

describe("DriverSwapCard", () => {
  it("an exchange sends each list under its field; a refused returned pack shows on its row only", async () => {
    h.mode = "optional";
    answers.push({
      status: 400,
      body: { status: 400, message: "Unknown pack: NOPE-7", code: "pack_unknown", data: { returnGoodPacks: { code: "validation_invalid", message: "Unknown pack: NOPE-7" }, packs: [{ serial: "NOPE-7", code: "pack_unknown", message: "Unknown pack: NOPE-7" }] } },
    });
    renderWith(<DriverSwapCard />);
    await userEvent.click(screen.getByRole("button", { name: "Exchange" }));
    await waitFor(() => expect(screen.getByRole("combobox", { name: "From Driver" })).toBeTruthy());
    await choose("From Driver", /^Ann Able/);
    await choose("To Driver", /^Bob Baker/);
    await userEvent.type(screen.getByLabelText("Good Batteries"), "1");
    await userEvent.type(screen.getByLabelText("Return Good Batteries"), "1");
    await typeSerials("Good packs", "SWB-000004");
    await typeSerials("Return good packs", "NOPE-7");
    await userEvent.click(screen.getByRole("button", { name: "Record Exchange" }));
    await confirm();
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toMatchObject({ goodBatteries: 1, returnGoodBatteries: 1, isExchange: true, goodPacks: ["SWB-000004"], returnGoodPacks: ["NOPE-7"] });
    expect(posts[0]!.body).not.toHaveProperty("deadPacks");
    const back = screen.getByRole("group", { name: "Return good packs" });
    expect((await within(back).findByRole("note")).textContent).toBe("Unknown pack: NOPE-7");
    expect(within(screen.getByRole("group", { name: "Good packs" })).queryByRole("note")).toBeNull();
    expect(within(screen.getByRole("group", { name: "Good packs" })).getAllByRole("listitem")).toHaveLength(1);
  });
  it("optional: the scans set the count; typed below them, refused first, under that list", async () => {
    h.mode = "optional";
    renderWith(<DriverSwapCard />);
    await waitFor(() => expect(screen.getByRole("combobox", { name: "From Driver" })).toBeTruthy());
    await choose("From Driver", /^Ann Able/);
    await choose("To Driver", /^Bob Baker/);
    const dead = screen.getByLabelText("Dead Batteries") as HTMLInputElement;
    await userEvent.type(dead, "1");
    await typeSerials("Dead packs", "SWB-000005", "SWB-000006");
    await waitFor(() => expect(dead.value).toBe("2")); // never fewer batteries than the packs scanned
    await userEvent.clear(dead);
    await userEvent.type(dead, "1");
    await userEvent.click(screen.getByRole("button", { name: "Record Swap" }));
    expect(await screen.findByText("Name at most 1 pack for 1 battery (2 named)")).toBeTruthy();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(posts).toHaveLength(0);
  });
});
