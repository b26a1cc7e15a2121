// Steps the field specs (field-offline, field-seams) share: a signed-in driver on the home,
// the quick log by keyboard, and the service worker taking the page.
import type { Page } from "@playwright/test";
import { expect, seedUser, signIn } from "./fixtures";

/** workerReady waits until the service worker controls the page (its precache is complete then). */
export async function workerReady(page: Page) {
  await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state);
  // clientsClaim: the first install takes this page, so its lazy parts load from the cache
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
}

/** quickLog logs Moves or Recovers by keyboard, not taps: the toast of the previous action may cover the top of a phone screen. */
export async function quickLog(page: Page, label: "Moves" | "Recovers", n: number) {
  await page.getByRole("button", { name: `Log ${label}` }).press("Enter");
  await page.getByLabel(`${label} to log`).fill(String(n));
  await page.getByLabel(`${label} to log`).press("Enter");
  await expect(page.getByLabel(`${label} to log`)).toHaveCount(0);
}

/**
 * newDriver seeds an approved driver, signs them in and waits until every lazy part of the home
 * has arrived (tests without the worker then go offline); with worker, also until the service
 * worker controls the page.
 */
export async function newDriver(
  page: Page,
  pb: Parameters<typeof seedUser>[0],
  email: string,
  name: { firstName: string; lastName: string },
  opts: { worker?: boolean } = {},
) {
  const driver = await seedUser(pb, { email, password: "driver-secret-1", ...name });
  await signIn(page, email, "driver-secret-1");
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Driver Home" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("Loading camera…")).toHaveCount(0, { timeout: 20_000 });
  if (opts.worker) await workerReady(page);
  return driver;
}
