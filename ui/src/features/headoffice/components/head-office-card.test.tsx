import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type HeadOfficeToken, MSG_NAME_REQUIRED, MSG_NAME_TOO_LONG, tokenNameError } from "@/features/headoffice/api/tokens";
import { HeadOfficeCard } from "@/features/headoffice/components/head-office-card";
import { userQueryOptions } from "@/lib/auth";
import { makeQueryClient } from "@/lib/query-client";

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const berlin: HeadOfficeToken = {
  id: "tok1",
  name: "Head office, Berlin",
  hint: "Xy9z",
  issuedAt: "2026-11-20 08:00:00.000Z",
  issuedBy: "Mara Master",
  revokedAt: null,
  revokedBy: null,
  lastUsedAt: "2026-11-27 09:30:00.000Z",
};
const TOKEN = "swbhq_" + "a".repeat(39) + "Q1w2";

/** renderCard shows the card to a master admin over a fake server holding tokens. */
function renderCard(tokens: HeadOfficeToken[]) {
  const calls: { method: string; url: string; body: unknown; key: string | null }[] = [];
  const fetchMock = vi.fn((url: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    const headers = new Headers(init?.headers);
    calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined, key: headers.get("Idempotency-Key") });
    if (method === "GET") return Promise.resolve(json({ tokens }));
    if (url.endsWith("/revoke")) {
      return Promise.resolve(
        json({ success: true, message: "Token revoked. Head office can no longer use it.", info: { ...berlin, revokedAt: "2026-11-28 10:00:00.000Z", revokedBy: "Mara Master" } }),
      );
    }
    const name = (JSON.parse(String(init?.body)) as { name: string }).name;
    return Promise.resolve(
      json({ success: true, message: "Token issued. Copy it now: it is shown only once.", token: TOKEN, info: { ...berlin, id: "tok2", name, hint: "Q1w2", lastUsedAt: null } }),
    );
  });
  vi.stubGlobal("fetch", fetchMock);
  const qc = makeQueryClient(false);
  qc.setQueryData(userQueryOptions.queryKey, { id: "u1", role: "master_admin" } as never);
  render(
    <QueryClientProvider client={qc}>
      <HeadOfficeCard />
    </QueryClientProvider>,
  );
  return calls;
}

describe("tokenNameError", () => {
  it("asks for a name and bounds it", () => {
    expect(tokenNameError("  ")).toBe(MSG_NAME_REQUIRED);
    expect(tokenNameError("x".repeat(101))).toBe(MSG_NAME_TOO_LONG);
    expect(tokenNameError("Head office")).toBe("");
  });
});

describe("HeadOfficeCard", () => {
  it("lists tokens by name and last four characters, never the token", async () => {
    renderCard([berlin, { ...berlin, id: "tok0", name: "Old HQ", revokedAt: "2026-11-01 08:00:00.000Z", revokedBy: "Mara Master", lastUsedAt: null }]);
    const list = await screen.findByRole("list", { name: "Head-office tokens" });
    const [active, revoked] = within(list).getAllByRole("listitem") as [HTMLElement, HTMLElement];
    expect(active.textContent).toContain("Head office, Berlin");
    expect(active.textContent).toContain("…Xy9z");
    expect(active.textContent).toContain("Active");
    expect(revoked.textContent).toContain("Revoked");
    expect(revoked.textContent).toContain("Never");
    expect(within(revoked).queryByRole("button", { name: /Revoke/ })).toBeNull();
  });

  it("refuses a blank name before sending, then issues and shows the token once", async () => {
    const calls = renderCard([]);
    await screen.findByText("No head-office tokens yet.");
    fireEvent.click(screen.getByRole("button", { name: "Issue token" }));
    expect((await screen.findByRole("alert")).textContent).toBe(MSG_NAME_REQUIRED);
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);

    fireEvent.change(screen.getByLabelText("Token name"), { target: { value: "  Head office, Paris " } });
    fireEvent.click(screen.getByRole("button", { name: "Issue token" }));
    const shown = (await screen.findByLabelText("Head-office token")) as HTMLInputElement;
    expect(shown.value).toBe(TOKEN);
    const post = calls.find((c) => c.method === "POST");
    expect(post?.body).toEqual({ name: "Head office, Paris" });
    expect(post?.key).toBeTruthy();
    // the list gains the new token (its hint), and Done hides the token for good
    expect(screen.getByRole("list", { name: "Head-office tokens" }).textContent).toContain("…Q1w2");
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(screen.queryByLabelText("Head-office token")).toBeNull();
    expect(document.body.textContent).not.toContain(TOKEN);
  });

  it("revokes after a confirmation, keyed", async () => {
    const calls = renderCard([berlin]);
    fireEvent.click(await screen.findByRole("button", { name: "Revoke Head office, Berlin" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog.textContent).toContain("Head office, Berlin");
    fireEvent.click(within(dialog).getByRole("button", { name: "Revoke" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    const post = calls.find((c) => c.url.endsWith("/tok1/revoke"));
    expect(post?.key).toBeTruthy();
    expect(screen.getByRole("list", { name: "Head-office tokens" }).textContent).toContain("Revoked");
  });
});
