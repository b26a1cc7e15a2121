import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { lagText, MSG_NEW_KEYS_REQUIRED, MSG_URL_REQUIRED, type ReplicationStatus, sameEndpoint } from "@/features/replication/api/replication";
import { ReplicationCard, SET_MARK } from "@/features/replication/components/replication-card";
import { userQueryOptions } from "@/lib/auth";
import { makeQueryClient } from "@/lib/query-client";

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** renderAs shows the card to a user of role; GET answers status, PUT answers put (or the status). */
function renderAs(role: string, status: ReplicationStatus | Record<string, unknown>, put?: () => Response) {
  const fetchMock = vi.fn((_url: string, init?: RequestInit) =>
    Promise.resolve(init?.method === "PUT" ? (put ? put() : json(status)) : json(status)),
  );
  vi.stubGlobal("fetch", fetchMock);
  const qc = makeQueryClient(false);
  qc.setQueryData(userQueryOptions.queryKey, { id: "u1", role } as never);
  render(
    <QueryClientProvider client={qc}>
      <ReplicationCard />
    </QueryClientProvider>,
  );
  return fetchMock;
}

const off: ReplicationStatus = { enabled: false, lagSeconds: 0, localTxid: 0, replicaTxid: 0 };
const settings = { enabled: true, url: "s3://swapbay-paris/db?region=eu-west-3", accessKeyIdSet: true, secretAccessKeySet: true };

describe("ReplicationCard", () => {
  it("shows the target, lag and last sync, and the warning", async () => {
    renderAs("master_admin", {
      enabled: true,
      target: "s3://swapbay-paris/db?endpoint=https%3A%2F%2Fs3.example&region=eu-west-3",
      lagSeconds: 75,
      lastSync: "2026-11-25T06:00:00Z",
      localTxid: 9,
      replicaTxid: 7,
      warning: "Replication is 75 s behind",
    });
    expect(await screen.findByText(/s3:\/\/swapbay-paris\/db/)).toBeTruthy();
    expect(screen.getByText("1 min 15 s")).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toContain("Replication is 75 s behind");
  });

  it("says off when nothing replicates, and warns when the stored replica did not start", async () => {
    renderAs("master_admin", { ...off, warning: "Replication is on in the System page's settings but did not start: boom" });
    expect(await screen.findByText("Off.")).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toContain("did not start: boom");
  });

  it("shows an admin the status and no form", async () => {
    const fetchMock = renderAs("admin", { ...off, enabled: true, target: "file:///mnt/replica", lastSync: "2026-11-25T06:00:00Z" });
    expect(await screen.findByText("file:///mnt/replica")).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.queryByLabelText("Replica URL")).toBeNull();
    expect(screen.queryByRole("button", { name: "Save Replication Settings" })).toBeNull();
  });

  it("is hidden from a driver, who never asks for the status", () => {
    const fetchMock = renderAs("driver", off);
    expect(screen.queryByText("Continuous Replication")).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("lets a master admin set the replica: stored credentials show as set, blank keeps them, the save is keyed", async () => {
    const saved = { ...off, enabled: true, target: "file:///mnt/replica", source: "settings", settings: { enabled: true, url: "file:///mnt/replica", accessKeyIdSet: false, secretAccessKeySet: false } };
    const fetchMock = renderAs("master_admin", { ...off, settings }, () => json(saved));
    const url = (await screen.findByLabelText("Replica URL")) as HTMLInputElement;
    expect(url.value).toBe(settings.url);
    const key = screen.getByLabelText("Access Key ID") as HTMLInputElement;
    const secret = screen.getByLabelText("Secret Access Key") as HTMLInputElement;
    expect(key.value).toBe("");
    expect(key.placeholder).toBe(SET_MARK);
    expect(secret.placeholder).toBe(SET_MARK);
    expect(secret.type).toBe("password");
    fireEvent.change(url, { target: { value: "file:///mnt/replica" } });
    fireEvent.click(screen.getByRole("button", { name: "Save Replication Settings" }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === "PUT")).toBe(true));
    const [u, init] = fetchMock.mock.calls.find(([, i]) => i?.method === "PUT")!;
    expect(u).toBe("/api/admin/replication");
    expect((init?.headers as Record<string, string>)["Idempotency-Key"]).toBeTruthy();
    expect(JSON.parse(String(init?.body))).toEqual({ enabled: true, url: "file:///mnt/replica", accessKeyId: "", secretAccessKey: "" });
    expect(await screen.findByText("file:///mnt/replica", { selector: "dd" })).toBeTruthy();
  });

  it("refuses turning it on without a URL, before sending anything", async () => {
    const fetchMock = renderAs("master_admin", { ...off, settings: { enabled: false, url: "", accessKeyIdSet: false, secretAccessKeySet: false } });
    fireEvent.click(await screen.findByRole("checkbox", { name: "Replicate continuously" }));
    fireEvent.click(screen.getByRole("button", { name: "Save Replication Settings" }));
    expect(await screen.findByText(MSG_URL_REQUIRED)).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "PUT")).toBe(false);
  });

  it("asks for new keys when the endpoint or bucket changes, before sending anything", async () => {
    const fetchMock = renderAs("master_admin", { ...off, settings });
    const url = (await screen.findByLabelText("Replica URL")) as HTMLInputElement;
    // another path in the same bucket keeps the saved keys
    fireEvent.change(url, { target: { value: "s3://swapbay-paris/other?region=eu-west-3" } });
    expect((screen.getByLabelText("Access Key ID") as HTMLInputElement).placeholder).toBe(SET_MARK);
    expect(screen.queryByText(`${MSG_NEW_KEYS_REQUIRED}.`)).toBeNull();
    // another bucket: the saved keys no longer apply
    fireEvent.change(url, { target: { value: "s3://swapbay-lyon/db?region=eu-west-3" } });
    expect((screen.getByLabelText("Access Key ID") as HTMLInputElement).placeholder).toBe("");
    expect((screen.getByLabelText("Secret Access Key") as HTMLInputElement).placeholder).toBe("");
    expect(screen.getByText(`${MSG_NEW_KEYS_REQUIRED}.`)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Save Replication Settings" }));
    expect(await screen.findByText(MSG_NEW_KEYS_REQUIRED)).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "PUT")).toBe(false);
  });

  it("is read-only when the server's flag or environment sets the replica, and shows it as on with where it was set", async () => {
    renderAs("master_admin", { ...off, enabled: true, target: "s3://b/db", source: "flag", settings: { ...settings, url: "s3://b/db", setBy: "flag" } });
    expect(await screen.findByText(/Set by the server's flag\/environment/)).toBeTruthy();
    expect(screen.getByText("the server's --replicate flag (read-only here)")).toBeTruthy();
    expect((screen.getByRole("checkbox", { name: "Replicate continuously" }) as HTMLButtonElement).getAttribute("aria-checked")).toBe("true");
    expect((screen.getByLabelText("Replica URL") as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Save Replication Settings" }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe("sameEndpoint", () => {
  it("is the scheme, bucket, endpoint and region, not the path", () => {
    expect(sameEndpoint("", "s3://a/db")).toBe(true);
    expect(sameEndpoint("s3://a/db?endpoint=https://h/&region=x", "s3://a/other?region=x&endpoint=https://h")).toBe(true);
    expect(sameEndpoint("s3://a/db?region=x", "s3://b/db?region=x")).toBe(false);
    expect(sameEndpoint("s3://a/db?endpoint=https://h", "s3://a/db?endpoint=https://evil")).toBe(false);
    expect(sameEndpoint("s3://a/db?region=x", "s3://a/db?region=y")).toBe(false);
  });
});

describe("lagText", () => {
  it("reads as seconds, then minutes", () => {
    expect(lagText(0.4)).toBe("under 1 s");
    expect(lagText(12.2)).toBe("12 s");
    expect(lagText(185)).toBe("3 min 5 s");
  });
});
