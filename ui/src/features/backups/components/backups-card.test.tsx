import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BackupsCard } from "@/features/backups/components/backups-card";
import { makeQueryClient } from "@/lib/query-client";

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => vi.unstubAllGlobals());

describe("BackupsCard", () => {
  it("keeps what the admin typed, and its error, when the stored schedule arrives after it", async () => {
    let answer: (r: Response) => void = () => undefined;
    vi.stubGlobal(
      "fetch",
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    render(
      <QueryClientProvider client={makeQueryClient(false)}>
        <BackupsCard />
      </QueryClientProvider>,
    );
    const keep = screen.getByLabelText("Backups to Keep");
    await userEvent.clear(keep);
    await userEvent.type(keep, "0");
    await userEvent.click(screen.getByRole("button", { name: "Save Schedule" }));
    const error = "Backups to keep must be a whole number from 1 to 100";
    expect(await screen.findByText(error)).toBeTruthy();
    answer(
      new Response(JSON.stringify({ schedule: { enabled: true, time: "04:15", keep: 7 }, backups: [], last: null }), {
        status: 200,
        headers: { "Content-Type": "application/json" },
      }),
    );
    // the untouched time takes the stored value; the typed count stays
    await waitFor(() => expect(screen.getByLabelText("Backup Time")).toHaveProperty("value", "04:15"));
    expect(keep).toHaveProperty("value", "0");
    // the message about what was typed stays with it (e2e: a slow answer wiped it in a fresh-clone run)
    expect(screen.getByText(error)).toBeTruthy();
  });
});
