import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RecentActivityCard } from "@/features/activity/components/recent-activity-card";
import { setTimeZone } from "@/lib/format";
import { makeQueryClient } from "@/lib/query-client";

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setTimeZone(undefined);
});

const driver = { id: "cory00000000001", firstName: "Cory", lastName: "Late", role: "driver" };
const base = { quantity: 3, notes: "", userId: driver.id, user: driver, meta: { userNotes: "", good: 0, dead: 3 } };

describe("RecentActivityCard", () => {
  it("shows a late action's two times in the operation's zone, and nothing more for one sent at once", async () => {
    setTimeZone("America/New_York"); // the operation zone, as the session answer sets it
    render(
      <QueryClientProvider client={makeQueryClient(false)}>
        <RecentActivityCard
          movements={[
            { ...base, id: "mv-late", type: "dropoff", createdAt: "2026-11-23T04:50:00.000Z", recordedAt: "2026-11-23T13:00:00.000Z" },
            { ...base, id: "mv-now", type: "pickup", createdAt: "2026-11-23T14:15:00.000Z", recordedAt: "2026-11-23T14:15:00.500Z" },
          ]}
        />
      </QueryClientProvider>,
    );
    expect(await screen.findByText("done 23:50 · sent 08:00")).toBeTruthy();
    expect(screen.queryAllByText(/^done /)).toHaveLength(1);
  });

  it("names an admin's entry by what it shows, and says what a tap does in its description (SC 2.5.3 Label in Name)", () => {
    render(
      <QueryClientProvider client={makeQueryClient(false)}>
        <RecentActivityCard manage movements={[{ ...base, id: "mv-1", type: "dropoff", createdAt: "2026-11-23T14:15:00.000Z" }]} />
      </QueryClientProvider>,
    );
    const entry = screen.getByRole("button", { description: "Opens Movement Options" });
    expect(entry.getAttribute("aria-label")).toBeNull();
    // the name is the entry's text, from its first word: a voice-control user says what they see
    expect(screen.getByRole("button", { name: /^Dropoff.*Cory Late dropped off 3 batteries/ })).toBe(entry);
  });
});
