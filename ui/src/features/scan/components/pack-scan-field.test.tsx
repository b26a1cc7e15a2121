import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import * as React from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PackScanField, type PackScanFieldProps } from "@/features/scan";
import { makeQueryClient } from "@/lib/query-client";

// a dialog and its chunk render in a few hundred ms alone, several seconds on a loaded 2-core runner
vi.setConfig({ testTimeout: 20_000 });

const toasts = vi.hoisted(() => vi.fn());
vi.mock("@/hooks/use-toast", () => ({ toast: toasts }));

const REGISTRY: Record<string, { model: string; state: string }> = {
  "SWB-000001": { model: "S-48V 15Ah", state: "in_service" },
  "SWB-000002": { model: "S-48V 15Ah", state: "quarantined" },
};

const OUT_OF_USE = { serial: "SWB-000002", code: "pack_quarantined", message: "Pack SWB-000002 is quarantined and cannot be handed out" };

/** a server answering the lookup from REGISTRY and the held packs list; offline: every fetch fails. */
function server(offline = false, outOfUse: () => (typeof OUT_OF_USE)[] = () => [OUT_OF_USE]) {
  const fetch = vi.fn(async (input: string) => {
    if (offline) throw new TypeError("Failed to fetch");
    const url = new URL(input, "http://x");
    if (url.pathname === "/api/packs/lookup") {
      const serials = (url.searchParams.get("serials") ?? "").split(",");
      return Response.json({ packs: serials.map((s) => (REGISTRY[s] ? { serial: s, known: true, ...REGISTRY[s] } : { serial: s, known: false })) });
    }
    if (url.pathname === "/api/packs/out-of-use") return Response.json({ packs: outOfUse() });
    if (url.pathname === "/api/packs") return Response.json({ packs: [{ serial: "SWB-000001" }, { serial: "SWB-000004" }], total: 2 });
    return new Response("not found", { status: 404 });
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

function Screen(props: Partial<PackScanFieldProps> & { onValue?: (v: string[]) => void }) {
  const [value, setValue] = React.useState<string[]>([]);
  return (
    <form onSubmit={() => props.onValue?.(["submitted"])}>
      <PackScanField
        id="test.packs"
        label="Packs"
        value={value}
        onChange={(v) => {
          setValue(v);
          props.onValue?.(v);
        }}
        {...props}
      />
    </form>
  );
}

function show(props: Partial<PackScanFieldProps> & { onValue?: (v: string[]) => void } = {}) {
  const qc = makeQueryClient(false);
  return render(
    <QueryClientProvider client={qc}>
      <Screen {...props} />
    </QueryClientProvider>,
  );
}

/** enter puts text in the typed serial input (pasted: one event, quick on a loaded machine) and presses Enter. */
async function enter(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
  await user.keyboard("{Enter}");
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe("PackScanField typed fallback", () => {
  it("adds typed serials and label URLs upper-case, checks them, and ignores a duplicate", async () => {
    const fetch = server();
    const onValue = vi.fn();
    const onRefused = vi.fn();
    show({ expected: 3, purpose: "handout", onValue, onRefused });
    const user = userEvent.setup({ delay: null });
    const input = screen.getByLabelText("Type a serial");
    await enter(user, input, "swb-000001");
    await enter(user, input, "https://bay.example/p/SWB-000002");
    await user.click(input);
    await user.paste("NOPE-7");
    await user.click(screen.getByRole("button", { name: "Add to Packs" }));
    expect(onValue).toHaveBeenLastCalledWith(["SWB-000001", "SWB-000002", "NOPE-7"]);
    expect(onValue).not.toHaveBeenCalledWith(["submitted"]); // Enter adds, it does not send the form

    const list = screen.getByRole("list", { name: "Packs scanned" });
    await within(list).findByText("S-48V 15Ah · In service");
    // the out-of-use pack is refused in the server's words, and the form is told
    expect(within(list).getByText(`S-48V 15Ah · ${OUT_OF_USE.message}`)).toBeTruthy();
    await waitFor(() => expect(onRefused).toHaveBeenLastCalledWith({ "SWB-000002": OUT_OF_USE.message }));
    expect(screen.getByText("2 of 3 scanned · 1 refused")).toBeTruthy(); // listed, not counted: it is not sent
    expect(within(list).getByText("Unknown pack — not in the registry")).toBeTruthy();
    // each checked once, as it was added
    const lookups = fetch.mock.calls.map((c) => String(c[0])).filter((u) => u.startsWith("/api/packs/lookup"));
    expect(lookups).toEqual(["/api/packs/lookup?serials=SWB-000001", "/api/packs/lookup?serials=SWB-000002", "/api/packs/lookup?serials=NOPE-7"]);

    await enter(user, input, "SWB-000001");
    expect((await screen.findByRole("alert")).textContent).toBe("SWB-000001 is already listed");
    expect(onValue).toHaveBeenCalledTimes(3);
  });

  it("a list synced before the pack went out of use catches up when the lookup finds it so: refused then", async () => {
    let reads = 0;
    const fetch = server(false, () => (reads++ === 0 ? [] : [OUT_OF_USE]));
    const onRefused = vi.fn();
    show({ purpose: "handout", onRefused });
    const user = userEvent.setup({ delay: null });
    await enter(user, screen.getByLabelText("Type a serial"), "SWB-000002");
    await screen.findByText(`S-48V 15Ah · ${OUT_OF_USE.message}`);
    await waitFor(() => expect(onRefused).toHaveBeenLastCalledWith({ "SWB-000002": OUT_OF_USE.message }));
    expect(fetch.mock.calls.filter((c) => String(c[0]) === "/api/packs/out-of-use").length).toBeGreaterThanOrEqual(2);
  });

  it("refuses text that is not a pack serial", async () => {
    server();
    show();
    const user = userEvent.setup({ delay: null });
    await enter(user, screen.getByLabelText("Type a serial"), "https://example.com/x");
    expect((await screen.findByRole("alert")).textContent).toBe("Not a pack serial or label");
    expect(screen.getByLabelText("Type a serial").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("0 scanned")).toBeTruthy();
  });

  it("removes a row", async () => {
    server();
    const onValue = vi.fn();
    show({ onValue });
    const user = userEvent.setup({ delay: null });
    await enter(user, screen.getByLabelText("Type a serial"), "SWB-000001");
    await enter(user, screen.getByLabelText("Type a serial"), "SWB-000004");
    await user.click(screen.getByRole("button", { name: "Remove SWB-000001" }));
    expect(onValue).toHaveBeenLastCalledWith(["SWB-000004"]);
  });

  it("shows offline rows as not checked and keeps the list for a reload until it is cleared", async () => {
    server(true);
    show();
    const user = userEvent.setup({ delay: null });
    await enter(user, screen.getByLabelText("Type a serial"), "SWB-000001");
    expect(await screen.findByText("Not checked (offline)")).toBeTruthy();
    // a reload unmounts nothing: what is kept is what the next page load restores
    expect(JSON.parse(sessionStorage.getItem("swapbay.scan.list.test.packs") ?? "[]")).toEqual(["SWB-000001"]);
    await user.click(screen.getByRole("button", { name: "Remove SWB-000001" }));
    expect(sessionStorage.getItem("swapbay.scan.list.test.packs")).toBeNull();
  });

  it("keeps the list when a rotation remounts the field, forgets it when the field leaves the screen", async () => {
    server();
    const qc = makeQueryClient(false);
    const at = (layout: string, onValue = vi.fn()) => (
      <QueryClientProvider client={qc}>
        <Screen key={layout} onValue={onValue} />
      </QueryClientProvider>
    );
    const view = render(at("portrait"));
    const user = userEvent.setup({ delay: null });
    await enter(user, screen.getByLabelText("Type a serial"), "SWB-000001");
    // another layout: the old field unmounts and a new one (with empty state) mounts in the same commit
    const restored = vi.fn();
    view.rerender(at("landscape", restored));
    await waitFor(() => expect(restored).toHaveBeenCalledWith(["SWB-000001"]));
    await new Promise((r) => setTimeout(r, 10));
    expect(sessionStorage.getItem("swapbay.scan.list.test.packs")).not.toBeNull();
    // sent, and the dialog closed with the field in it (the caller's clear unseen): forgotten
    view.unmount();
    await waitFor(() => expect(sessionStorage.getItem("swapbay.scan.list.test.packs")).toBeNull());
  });

  it("checks a restored list in one request and shows a server refusal on its row", async () => {
    const fetch = server();
    sessionStorage.setItem("swapbay.scan.list.test.packs", JSON.stringify(["SWB-000001", "SWB-000002"]));
    show({ errors: { "SWB-000001": "Pack SWB-000001 was scanned twice" } });
    expect(await screen.findByText("S-48V 15Ah · Pack SWB-000001 was scanned twice")).toBeTruthy();
    expect(await screen.findByText("S-48V 15Ah · Quarantined")).toBeTruthy(); // not a handout: no refusal
    const lookups = fetch.mock.calls.map((c) => String(c[0])).filter((u) => u.startsWith("/api/packs/lookup"));
    expect(lookups).toEqual(["/api/packs/lookup?serials=SWB-000001,SWB-000002"]);
  });
});
