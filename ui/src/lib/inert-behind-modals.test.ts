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

  it("around a live region, makes each sibling Radix hides below the root inert, and lifts only what it set", async () => {
    const root = document.createElement("div");
    const form = document.createElement("form");
    const field = document.createElement("input");
    const live = document.createElement("p");
    live.setAttribute("aria-live", "polite");
    const own = document.createElement("div");
    own.setAttribute("inert", ""); // inert for a reason of its own
    form.append(field, live);
    root.append(form, own);
    document.body.append(root);
    stop = inertBehindModals(root);
    // what hideOthers does when a live region is below the root: the siblings on its path, marked
    field.setAttribute("data-aria-hidden", "true");
    field.setAttribute("aria-hidden", "true");
    own.setAttribute("data-aria-hidden", "true");
    own.setAttribute("aria-hidden", "true");
    await tick();
    expect(field.hasAttribute("inert")).toBe(true);
    expect(live.hasAttribute("inert")).toBe(false);
    expect(root.hasAttribute("inert")).toBe(false);
    for (const el of [field, own]) {
      el.removeAttribute("aria-hidden");
      el.removeAttribute("data-aria-hidden");
    }
    await tick();
    expect(field.hasAttribute("inert")).toBe(false);
    expect(own.hasAttribute("inert"), "an inert set elsewhere stays").toBe(true);
  });
});
