import { IDBFactory } from "fake-indexeddb";
import "fake-indexeddb/auto";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addItems, closeForTests } from "@/features/outbox/api/db";
import { HeldActions, heldText } from "@/features/outbox/components/held-actions";

const item = (userId: string, key: string, status: "waiting" | "refused" = "waiting") => ({
  key,
  kind: "pickup",
  userId,
  body: { quantity: 1 },
  occurredAt: "2026-11-27T08:00:00.000Z",
  status,
  attempts: 0,
});

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  closeForTests();
});
afterEach(cleanup);

describe("a suspended driver's blocking panel", () => {
  it("says how many of their own actions wait on this phone (not another account's, not refused ones)", async () => {
    await addItems([item("u1", "a"), item("u1", "b"), item("u1", "c", "refused"), item("u2", "d")]);
    render(<HeldActions userId="u1" />);
    expect((await screen.findByRole("status")).textContent).toBe(heldText(2));
    expect(heldText(2)).toBe("2 actions of yours wait on this phone: they are sent once your account is approved again. Signing out keeps them here.");
  });

  it("says nothing when none waits", async () => {
    await addItems([item("u2", "d")]);
    render(<HeldActions userId="u1" />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole("status")).toBeNull();
  });
});
