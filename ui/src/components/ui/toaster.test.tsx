// The toasts step aside from keyboard focus (WCAG 2.2 SC 2.4.11), also when a toast comes after
// the focus moved (the "Welcome back!" toast after signing in).
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Toaster } from "@/components/ui/toaster";
import { toast } from "@/hooks/use-toast";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** everything is drawn in the same top-left box: a toast covers whatever has focus */
function sameBox() {
  vi.spyOn(Element.prototype, "getBoundingClientRect").mockReturnValue({ top: 0, bottom: 40, left: 0, right: 300, width: 300, height: 40, x: 0, y: 0, toJSON: () => ({}) });
}

const flipped = () => screen.getByRole("region", { name: /Notifications/ }).querySelector("ol")!.className.split(" ").includes("top-auto");

describe("Toaster", () => {
  it("steps aside when a toast appears over the focused control, once", async () => {
    sameBox();
    render(
      <>
        <button type="button">Recovers</button>
        <Toaster />
      </>,
    );
    screen.getByRole("button", { name: "Recovers" }).focus();
    expect(flipped()).toBe(false);
    act(() => {
      toast({ title: "Welcome back!" });
    });
    await screen.findByText("Welcome back!");
    expect(flipped()).toBe(true);
    act(() => {
      toast({ title: "Another" });
    });
    await screen.findByText("Another");
    expect(flipped(), "it does not swing back for the same control").toBe(true);
  });

  it("steps aside when focus moves under a toast", async () => {
    sameBox();
    render(
      <>
        <button type="button">Logout</button>
        <Toaster />
      </>,
    );
    act(() => {
      toast({ title: "Saved" });
    });
    await screen.findByText("Saved");
    expect(flipped()).toBe(false);
    act(() => screen.getByRole("button", { name: "Logout" }).focus());
    expect(flipped()).toBe(true);
  });
});
