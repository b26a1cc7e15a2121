import { afterEach, describe, expect, it } from "vitest";
import { inertBehindModals } from "@/lib/inert-behind-modals";

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("inertBehindModals", () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it("makes the root inert while it is aria-hidden, and lifts it with aria-hidden", async () => {
    const root = document.createElement("div");
    document.body.append(root);
    stop = inertBehindModals(root);
    expect(root.hasAttribute("inert")).toBe(false);
    root.setAttribute("aria-hidden", "true"); // what Radix's hideOthers does when a menu opens
    await tick();
    expect(root.hasAttribute("inert")).toBe(true);
    root.removeAttribute("aria-hidden");
    await tick();
    expect(root.hasAttribute("inert")).toBe(false);
  });

  it("starts in step with a root already hidden", () => {
    const root = document.createElement("div");
    root.setAttribute("aria-hidden", "true");
    stop = inertBehindModals(root);
    expect(root.hasAttribute("inert")).toBe(true);
  });
});
