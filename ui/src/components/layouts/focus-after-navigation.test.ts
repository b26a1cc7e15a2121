// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { focusAfterNavigation } from "@/components/layouts/focus-after-navigation";

function screen(html: string): HTMLElement {
  const main = document.createElement("main");
  main.innerHTML = html;
  document.body.append(main);
  return main;
}

afterEach(() => {
  document.body.replaceChildren();
  vi.useRealTimers();
});

describe("focusAfterNavigation", () => {
  it("gives the new screen's heading the focus the removed control had, until it moves on", () => {
    const main = screen(`<button>Send 2 packs</button>`);
    main.querySelector("button")!.focus();
    // the answer opens the transfer's page: the old screen goes with its button
    main.innerHTML = `<h1>Sent 2 packs to Berlin</h1><a href="/packs/transfers">All transfers</a>`;
    expect(document.activeElement).toBe(document.body);
    focusAfterNavigation(main);
    const h1 = main.querySelector("h1")!;
    expect(document.activeElement).toBe(h1);
    expect(h1.getAttribute("tabindex")).toBe("-1");
    main.querySelector("a")!.focus();
    expect(h1.hasAttribute("tabindex")).toBe(false);
  });

  it("leaves the focus where it is when a control still has it (a tab of the admin bar)", () => {
    const main = screen(`<h1>Packs</h1>`);
    const tab = document.createElement("a");
    tab.href = "/packs";
    document.body.prepend(tab);
    tab.focus();
    focusAfterNavigation(main);
    expect(document.activeElement).toBe(tab);
  });

  it("waits for a lazily loaded screen's heading, and stops if something else takes the focus first", async () => {
    const main = screen(`<p>Loading…</p>`);
    focusAfterNavigation(main);
    expect(document.activeElement).toBe(document.body);
    main.innerHTML = `<h1>Transfer</h1>`;
    await vi.waitFor(() => expect(document.activeElement).toBe(main.querySelector("h1")));

    const other = screen(`<p>Loading…</p><input aria-label="Search">`);
    (document.activeElement as HTMLElement).blur();
    focusAfterNavigation(other);
    other.querySelector("input")!.focus();
    other.insertAdjacentHTML("afterbegin", "<h1>Packs</h1>");
    await new Promise((r) => setTimeout(r, 0));
    expect(document.activeElement).toBe(other.querySelector("input"));
  });

  it("gives up after a while when no heading comes", () => {
    vi.useFakeTimers();
    const main = screen(`<p>Loading…</p>`);
    focusAfterNavigation(main);
    vi.advanceTimersByTime(5_000);
    main.innerHTML = `<h1>Late</h1>`;
    return Promise.resolve().then(() => expect(document.activeElement).toBe(document.body));
  });
});
