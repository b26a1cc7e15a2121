import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ReceivePage } from "@/features/transfers/components/receive-page";
import { toast } from "@/hooks/use-toast";
import { makeQueryClient } from "@/lib/query-client";

vi.mock("@/hooks/use-toast", () => ({ toast: vi.fn() }));

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

function encode(v: unknown): string {
  const b64 = btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(v))));
  return "SWBT1." + b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const MANIFEST = encode({
  v: 1,
  ref: "abc",
  from: { name: "Paris", address: "https://paris.example" },
  to: "Berlin",
  at: "2026-11-28T10:00:00Z",
  packs: [
    { serial: "PAR-000001", model: "Nova", lot: "L1" },
    { serial: "PAR-000004", model: "Nova", lot: "L1" },
  ],
});

function renderPage() {
  const sent: { url: string; body: unknown; key: string | null }[] = [];
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    if (init?.method === "POST") {
      sent.push({ url, body: JSON.parse(String(init.body)), key: new Headers(init.headers).get("Idempotency-Key") });
      // this city has recalled the lot: the pack arrived quarantined
      const transfer = { id: "t1", direction: "in", serials: ["PAR-000004"], states: { "PAR-000004": "quarantined" } };
      return new Response(JSON.stringify({ success: true, message: "Received 1 pack from Paris", transfer }), { status: 201 });
    }
    return new Response(JSON.stringify([]), { status: 200 });
  });
  vi.stubGlobal("fetch", fetch);
  render(
    <QueryClientProvider client={makeQueryClient(false)}>
      <MemoryRouter initialEntries={["/packs/transfers/receive"]}>
        <ReceivePage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { sent, user: userEvent.setup() };
}

describe("ReceivePage", () => {
  it("reads the pasted manifest, refuses a pack not in it, and receives the scanned ones (keyed)", async () => {
    const { sent, user } = renderPage();
    await user.click(screen.getByLabelText("Manifest"));
    await user.paste(MANIFEST);
    expect(await screen.findByText("From Paris · 2 packs")).toBeTruthy();
    const typed = screen.getByLabelText("Type a serial");
    await user.type(typed, "PAR-000009{Enter}");
    expect(screen.getByRole("alert").textContent).toBe("PAR-000009: Not in this transfer");
    await user.clear(typed);
    await user.type(typed, "https://paris.example/p/par-000004{Enter}");
    expect(screen.getByText("1 of 2 scanned")).toBeTruthy();
    const rows = within(screen.getByRole("list", { name: "Packs in this transfer" })).getAllByRole("listitem");
    expect(rows[1]!.textContent).toContain("Scanned");
    expect(rows[0]!.textContent).toContain("Not scanned yet");
    await user.click(screen.getByRole("button", { name: "Receive 1 pack" }));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.url).toBe("/api/admin/packs/transfers/receive");
    expect(sent[0]!.body).toEqual({ manifest: MANIFEST, serials: ["PAR-000004"], to: "ready" });
    expect(sent[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    await vi.waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: "Received 1 pack from Paris",
        description: "PAR-000004 is quarantined: this city has recalled its lot, model or manufacturer.",
      }),
    );
  });

  it("says what is wrong with text that is not a manifest", async () => {
    const { user } = renderPage();
    await user.click(screen.getByLabelText("Manifest"));
    await user.paste("hello");
    expect((await screen.findByRole("alert")).textContent).toContain("not a SwapBay transfer manifest");
    expect((screen.getByRole("button", { name: "Receive" }) as HTMLButtonElement).disabled).toBe(true);
  });
});
