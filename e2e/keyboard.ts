// Keyboard-only steps the keyboard specs share (a11y-keyboard, pack-safety-keyboard): after the
// first page.goto only page.keyboard moves focus and acts; every stop is checked with
// expectFocusVisible (a focus indicator, inside the viewport, not under a header or a toast).
import type { Locator, Page } from "@playwright/test";
import { expectFocusVisible, tabTo } from "./a11y";
import { expect } from "./fixtures";

/** press presses key and checks the focus that follows. */
export async function press(page: Page, key: string) {
  await page.keyboard.press(key);
  await expectFocusVisible(page);
}

/** typeInto moves focus to field with Tab (Shift+Tab with back) and types text. */
export async function typeInto(page: Page, field: Locator, text: string, opts: { back?: boolean } = {}) {
  await tabTo(page, field, opts);
  await page.keyboard.type(text);
}

/** signInWithKeyboard fills the sign-in screen (shown to a guest at /) with the keyboard and submits it. */
export async function signInWithKeyboard(page: Page, email: string, password: string) {
  await expect(page.getByRole("tab", { name: "Sign In" })).toBeVisible();
  await typeInto(page, page.getByLabel("Email"), email);
  await typeInto(page, page.getByLabel("Password"), password);
  await tabTo(page, page.getByRole("button", { name: "Sign In", exact: true }));
  await page.keyboard.press("Enter");
}

/**
 * chooseOption picks name in the open Radix list (listbox) with the arrow keys and Enter:
 * ArrowDown until the focused option is name, at most max presses. After each press it waits for
 * the focus to move (on a loaded machine it can land a frame later, and reading it early made a
 * second press skip past name); where it cannot move (the end of the list) it turns back up.
 */
export async function chooseOption(page: Page, name: string, max = 30) {
  await expect(page.getByRole("listbox")).toBeVisible();
  const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
  let key = "ArrowDown";
  for (let i = 0; i < max; i++) {
    const focused = await focusedText();
    if (focused === name) {
      await page.keyboard.press("Enter");
      await expect(page.getByRole("listbox")).toHaveCount(0);
      return;
    }
    await page.keyboard.press(key);
    const moved = await expect
      .poll(focusedText, { timeout: 1_000 })
      .not.toBe(focused)
      .then(
        () => true,
        () => false,
      );
    if (!moved) key = key === "ArrowDown" ? "ArrowUp" : "ArrowDown";
  }
  throw new Error(`option ${name} never had focus`);
}

/**
 * expectTabOrder presses Tab (Shift+Tab with back) once per stop and expects each stop to take
 * the focus in turn, with a focus indicator, and to carry a non-empty accessible name.
 */
export async function expectTabOrder(page: Page, stops: Locator[], { back = false } = {}) {
  for (const stop of stops) {
    await press(page, back ? "Shift+Tab" : "Tab");
    await expect(stop).toBeFocused();
    await expect(stop).toHaveAccessibleName(/\S/);
  }
}

/** expectFocusIn expects the focus inside scope (a dialog that has just opened), visibly. */
export async function expectFocusIn(scope: Locator) {
  await expect.poll(() => scope.evaluate((el) => el.contains(document.activeElement) && el !== document.activeElement)).toBe(true);
  await expectFocusVisible(scope.page());
}

/**
 * expectOpensAndEscapes presses Enter on the focused opener: dialog opens with the focus on
 * first, inside it and visible; Escape closes it and the focus is back on opener.
 */
export async function expectOpensAndEscapes(page: Page, opener: Locator, dialog: Locator, first: Locator) {
  await expect(opener).toBeFocused();
  await page.keyboard.press("Enter");
  await expectFocusIn(dialog);
  await expect(first).toBeFocused();
  await press(page, "Escape");
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
}

/** settled waits until no animation runs (a dialog's open or close) and no region is busy. */
export async function settled(page: Page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}
