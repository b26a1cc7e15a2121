import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { lagText } from "@/features/replication/api/replication";
import { ReplicationCard } from "@/features/replication/components/replication-card";
import { userQueryOptions } from "@/lib/auth";
import { makeQueryClient } from "@/lib/query-client";

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderAs(role: string, status: unknown) {
  const fetchMock = vi.fn(() =>
    Promise.resolve(new Response(JSON.stringify(status), { status: 200, headers: { "Content-Type": "application/json" } })),
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

  it("says off when nothing replicates", async () => {
    renderAs("master_admin", { enabled: false, lagSeconds: 0, localTxid: 0, replicaTxid: 0 });
    expect(await screen.findByText("Off.")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("is hidden from an admin, who never asks for the status", () => {
    const fetchMock = renderAs("admin", { enabled: false });
    expect(screen.queryByText("Continuous Replication")).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe("lagText", () => {
  it("reads as seconds, then minutes", () => {
    expect(lagText(0.4)).toBe("under 1 s");
    expect(lagText(12.2)).toBe("12 s");
    expect(lagText(185)).toBe("3 min 5 s");
  });
});
