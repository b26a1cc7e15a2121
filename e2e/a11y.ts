// Shared accessibility checks (issue 28 item 4, WCAG 2.2 AA; issue 32: every A/AA rule):
// - expectNoAxeViolations runs axe-core with the WCAG 2.0/2.1/2.2 A and AA tags, the
//   experimental rules that carry those tags (label-content-name-mismatch is SC 2.5.3 Label in
//   Name, level A, and axe runs no experimental rule unless it is named) and the target-size
//   rule (SC 2.5.8, off by default in axe), plus this project's stricter Label in Name check
//   (a control's name begins with the text it shows), and fails on any violation, whatever
//   its impact; every axe run of the e2e tests goes through it;
// - tabTo moves focus with the keyboard only, checking at every stop that the focused
//   element shows a focus indicator and is not hidden under the sticky header or a toast.
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import axe from "axe-core";
import { expect } from "./fixtures";

/**
 * AXE_TAGS are the rule sets run: WCAG 2.0, 2.1 and 2.2, levels A and AA (axe has no wcag22a
 * tag: 2.2's new level A criteria, consistent help and redundant entry, have no automatic rule).
 */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * AXE_RULES are the rules switched on beside the tags: target-size, and each experimental
 * rule of those tags (read from the axe-core that runs, so an upgrade's new ones are run too).
 */
export const AXE_RULES: Record<string, { enabled: boolean }> = Object.fromEntries(
  ["target-size", ...axe.getRules(AXE_TAGS).filter((r) => r.tags.includes("experimental")).map((r) => r.ruleId)].map((id) => [id, { enabled: true }]),
);

/**
 * axeViolations lists axe's violations on page as "rule (impact): targets" lines: the rules
 * tagged AXE_TAGS plus AXE_RULES, and label-in-name-start (nameStartMisses). One options object carries both: AxeBuilder's options()
 * replaces what withTags() set, so chaining the two ran every rule, best practices included.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // Legacy mode runs axe.run in the page itself. The default (runPartial) opens a blank page
  // after every run to finish it there, injecting axe-core's 550 KB a second time: measured on
  // 30 demo screens, axe cost 33 core-s that way and 16 in legacy mode, with the same rules and
  // results (the app has no iframes; legacy mode still checks same-origin ones).
  const results = await new AxeBuilder({ page }).setLegacyMode().options({ runOnly: { type: "tag", values: AXE_TAGS }, rules: AXE_RULES }).analyze();
  const misses = await nameStartMisses(page);
  return [
    ...results.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => `${n.target.join(" ")} — ${n.failureSummary?.split("\n")[1]?.trim() ?? ""}`).join(" | ")}`,
    ),
    ...(misses.length ? [`label-in-name-start (serious): ${misses.join(" | ")}`] : []),
  ];
}

/**
 * nameStartMisses lists the shown controls named by aria-label or aria-labelledby whose name
 * does not begin with the text they show (SC 2.5.3, as this project applies it: axe's
 * label-content-name-mismatch asks only that the name contain the text). The text is what
 * the control shows outside aria-hidden parts; both are compared without spaces or case.
 */
async function nameStartMisses(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // the roles named from their content: the ones a voice-control user presses by their words
    const roles = new Set(["button", "link", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "checkbox", "radio", "switch", "treeitem"]);
    const role = (el: Element) => {
      const explicit = el.getAttribute("role");
      if (explicit) return explicit.split(" ")[0];
      if (el.tagName === "BUTTON" || el.tagName === "SUMMARY") return "button";
      if (el.tagName === "A" && el.hasAttribute("href")) return "link";
      return "";
    };
    const squash = (s: string) => s.replace(/\s+/g, "").toLowerCase();
    const shown = (el: Element) => {
      let text = "";
      const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const parent = n.parentElement;
        if (!parent || parent.closest('[aria-hidden="true"]') || !parent.checkVisibility({ visibilityProperty: true })) continue;
        text += n.textContent ?? "";
      }
      return squash(text);
    };
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll("[aria-label], [aria-labelledby]"))) {
      if (!roles.has(role(el)) || !el.checkVisibility({ visibilityProperty: true })) continue;
      const text = shown(el);
      if (!text) continue;
      const labelledBy = el.getAttribute("aria-labelledby");
      const name = labelledBy
        ? labelledBy
            .split(/\s+/)
            .map((id) => document.getElementById(id)?.textContent ?? "")
            .join(" ")
        : (el.getAttribute("aria-label") ?? "");
      if (!squash(name).startsWith(text)) out.push(`${el.tagName.toLowerCase()} named "${name.slice(0, 60)}" shows "${text.slice(0, 40)}"`);
    }
    return out;
  });
}

/** expectNoAxeViolations fails when axe finds any violation on page (label names the screen). */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  expect(await axeViolations(page), `axe on ${label}`).toEqual([]);
}

/**
 * describedAs finds, under scope, the shown controls whose description (aria-describedby) is
 * description: a control is named by what it shows (SC 2.5.3 Label in Name), a count "3"
 * that adjusts a driver's moves says so in its description, "Adjust Moves of Sam Kowalski".
 */
export function describedAs(scope: Page | Locator, description: string): Locator {
  if (description.includes('"')) throw new Error(`describedAs: a description with a double quote: ${description}`);
  return scope.locator(`xpath=//*[@aria-describedby = //*[normalize-space(.) = "${description}"]/@id]`).filter({ visible: true });
}

/** FocusState is what focusState reads about the focused element. */
export type FocusState = {
  tag: string;
  name: string;
  /** :focus-visible applies and a focus indicator is drawn: an outline or a focus ring (box-shadow) */
  indicator: boolean;
  /** the element's box lies inside the viewport */
  inViewport: boolean;
  /** the sticky or fixed header, a visible toast, or whatever is on top at the element's centre, when it covers the element */
  obscuredBy: string | null;
};

/** focusState reads the focused element's indicator and whether something covers it (SC 2.4.7, 2.4.11). */
export async function focusState(page: Page): Promise<FocusState | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const css = getComputedStyle(el);
    const transparent = (c: string) => c === "transparent" || /rgba?\(.*,\s*0\)$/.test(c) || / \/ 0\)$/.test(c);
    const outline = css.outlineStyle !== "none" && parseFloat(css.outlineWidth) > 0 && !transparent(css.outlineColor);
    // Tailwind's ring is a box-shadow through --tw-ring-shadow ("0 0 #0000" when none): a plain
    // shadow-xs is not a focus indicator
    const ring = css.getPropertyValue("--tw-ring-shadow").trim();
    const ringDrawn = ring !== "" && !/^0 0 (#0000|transparent)/.test(ring) && css.boxShadow !== "none";
    const r = el.getBoundingClientRect();
    // an element that fits is shown whole; one taller than the screen (a tab panel on a phone)
    // cannot be: at least half the screen shows it (the browser scrolls such an element's top
    // into view with the page's header above it, so it does not fill the screen either)
    const shownX = Math.min(r.right, window.innerWidth) - Math.max(r.left, 0);
    const shownY = Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0);
    const inViewport =
      shownX >= Math.min(r.width, window.innerWidth) - 1 && (r.height > window.innerHeight ? shownY >= window.innerHeight / 2 : shownY >= r.height - 1);
    const describe = (n: Element) =>
      `${n.tagName.toLowerCase()}${n.id ? `#${n.id}` : ""}${n.getAttribute("role") ? `[role=${n.getAttribute("role")}]` : ""}${
        n.getAttribute("aria-label") ? `[aria-label="${n.getAttribute("aria-label")}"]` : ""
      }`;
    const overlaps = (b: DOMRect) => b.width > 0 && b.height > 0 && b.left < r.right && b.right > r.left && b.top < r.bottom && b.bottom > r.top;
    let obscuredBy: string | null = null;
    // the sticky or fixed header (none is sticky today: this keeps it honest if one becomes so)
    for (const h of document.querySelectorAll("header")) {
      const pos = getComputedStyle(h).position;
      if ((pos === "sticky" || pos === "fixed") && !h.contains(el) && overlaps(h.getBoundingClientRect())) obscuredBy = describe(h);
    }
    // a visible toast: over any part of a control that fits on the screen; over a panel taller
    // than the screen, a toast hides a corner of it, never the panel (SC 2.4.11: not entirely
    // hidden), so there it counts when it covers half of what the screen shows of the panel
    const tall = r.height > window.innerHeight;
    const shownArea = Math.max(shownX, 0) * Math.max(shownY, 0);
    for (const t of document.querySelectorAll('[role="region"][aria-label^="Notifications"] li')) {
      if (t.contains(el)) continue;
      const b = t.getBoundingClientRect();
      const coveredArea =
        Math.max(0, Math.min(b.right, r.right, window.innerWidth) - Math.max(b.left, r.left, 0)) *
        Math.max(0, Math.min(b.bottom, r.bottom, window.innerHeight) - Math.max(b.top, r.top, 0));
      if (tall ? coveredArea > shownArea / 2 : overlaps(b)) obscuredBy = `toast "${(t.textContent ?? "").trim().slice(0, 40)}"`;
    }
    if (!obscuredBy) {
      // the middle of what the screen shows of it (a panel taller than the screen: not its own
      // middle clamped to the screen's edge, where the toasts' empty list sits); toasts are
      // judged above, by what they cover
      const x = Math.min((Math.max(r.left, 0) + Math.min(r.right, window.innerWidth)) / 2, window.innerWidth - 1);
      const y = Math.min((Math.max(r.top, 0) + Math.min(r.bottom, window.innerHeight)) / 2, window.innerHeight - 1);
      const hit = document.elementFromPoint(x, y);
      const inToasts = !!hit?.closest('[role="region"][aria-label^="Notifications"]');
      if (hit && hit !== el && !el.contains(hit) && !hit.contains(el) && !inToasts) obscuredBy = describe(hit);
    }
    return {
      tag: describe(el),
      name: (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 60),
      indicator: el.matches(":focus-visible") && (outline || ringDrawn),
      inViewport,
      obscuredBy,
    };
  });
}

/** expectFocusVisible fails unless the focused element shows a focus indicator, lies in the viewport and is not covered. */
export async function expectFocusVisible(page: Page): Promise<void> {
  // the page answers a focus move (a toast slides to the other edge, a list scrolls): the
  // state is judged once it has settled, within 3 s; the checks below then say what is wrong
  await expect
    .poll(async () => {
      const s = await focusState(page);
      return !!s && s.indicator && s.inViewport && s.obscuredBy === null;
    }, { timeout: 3_000 })
    .toBe(true)
    .catch(() => undefined);
  const s = await focusState(page);
  expect(s, "something has focus").not.toBeNull();
  expect(s!.indicator, `focus indicator on ${s!.tag} "${s!.name}"`).toBe(true);
  expect(s!.inViewport, `${s!.tag} "${s!.name}" inside the viewport`).toBe(true);
  expect(s!.obscuredBy, `${s!.tag} "${s!.name}" hidden under another element`).toBeNull();
}

/**
 * tabTo presses Tab (or Shift+Tab with back) until target has focus, at most max times,
 * checking every stop with expectFocusVisible.
 */
export async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}): Promise<void> {
  // a walk that starts from nothing focused (a page just loaded) starts in the window a person
  // is looking at: a test that opened and closed another context's page (a driver's, to seed
  // data) could leave this one without the browser's focus, and its first Tab then went nowhere
  // (FC40: nothing focused, the page fully shown)
  if (await page.evaluate(() => !document.activeElement || document.activeElement === document.body || !document.hasFocus())) await page.bringToFront();
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    const before = await page.evaluateHandle(() => document.activeElement);
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    await expect.poll(() => focusState(page), { timeout: 3_000 }).not.toBeNull().catch(() => undefined);
    if ((await focusState(page)) === null) {
      // focus fell to the body: say where it was before this Tab and what became of that element
      // (removed from the page, disabled, hidden), so a failure names the page's fault
      const fate = await before.evaluate((el) => {
        if (!el || el === document.body) return `nothing had focus before it either (the page ${document.hasFocus() ? "has" : "does not have"} the browser's focus)`;
        const d = `<${el.tagName.toLowerCase()}> "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 60)}"`;
        if (!el.isConnected) return `${d} had focus and was then removed from the page`;
        if ((el as HTMLButtonElement).disabled) return `${d} had focus and was then disabled`;
        if (!(el as HTMLElement).checkVisibility?.()) return `${d} had focus and was then hidden`;
        return `${d} had focus; Tab from it moved focus to nothing`;
      });
      await before.dispose();
      throw new Error(`Tab ${i + 1} towards ${target} left nothing focused: ${fate}`);
    }
    await before.dispose();
    await expectFocusVisible(page);
  }
  throw new Error(`focus never reached ${target} in ${max} Tab presses`);
}
