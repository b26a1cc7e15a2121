// The public pack page (DESIGN.md §14, issue 37 item 6): /p/<serial> is what a label's QR code
// opens. Signed out, a visitor sees the pack's public passport attributes (serial, state in
// words, model, chemistry, energy, manufacturer, month of manufacture) and no person's name,
// axe clean and fitting a 360 px phone; a driver sees the same page; an admin opening it lands
// on the pack page, where a damage report links its incident PDF. The pack is minted through
// the API (the step under test is the page).
import { execFileSync } from "node:child_process";
import { expectNoAxeViolations } from "../a11y";
import type { Page } from "@playwright/test";
import { expect, seedUser, signIn, test } from "../fixtures";

/** fitsPhone checks that the page does not scroll sideways at 360 px (then restores the viewport). */
async function fitsPhone(page: Page) {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 780 });
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), "360 px").toBeLessThanOrEqual(0);
  if (before) await page.setViewportSize(before);
}

test("a pack's label page: public signed out and for a driver, the pack page for an admin", async ({ page, pb, shot, unique }) => {
  const admin = { email: unique("passport-admin"), password: "admin-secret-1", firstName: "Perpetua", lastName: "Quenneville" };
  const driver = { email: unique("passport-driver"), password: "driver-secret-1", firstName: "Dorotea", lastName: "Vallombrosa" };
  await seedUser(pb, { ...admin, role: "admin" });
  await seedUser(pb, driver);
  await signIn(page, admin.email, admin.password);
  const lot = `PASS-${Date.now().toString(36).toUpperCase()}`;
  const minted = await page.request.post("/api/admin/packs/mint", {
    headers: { "Idempotency-Key": crypto.randomUUID() },
    data: { count: 1, model: "Nova 48V 15Ah", chemistry: "LFP", nominalWh: 720, manufacturer: "Voltcell", lot, manufactured: "2026-03" },
  });
  expect(minted.status(), await minted.text()).toBe(200);
  const { serial } = (await minted.json()).packs[0] as { serial: string };

  await test.step("signed out: the public attributes, no person, axe clean, fits 360 px", async () => {
    await page.context().clearCookies();
    await page.goto(`/p/${serial}`);
    await expect(page.getByRole("heading", { name: serial, level: 1 })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/p/${serial}$`));
    await expect(page.getByText("State: In service")).toBeVisible();
    for (const [term, value] of [
      ["Model", "Nova 48V 15Ah"],
      ["Chemistry", "LFP (Lithium iron phosphate)"],
      ["Nominal energy", "720 Wh"],
      ["Manufacturer", "Voltcell"],
      ["Manufactured", "2026-03"],
      ["Lot", lot],
    ]) {
      await expect(page.getByRole("definition").filter({ hasText: value }).first(), term).toBeVisible();
    }
    const text = (await page.locator("body").innerText()).toLowerCase();
    for (const name of [admin.firstName, admin.lastName, admin.email]) expect(text).not.toContain(name.toLowerCase());
    await expectNoAxeViolations(page, "the public pack page");
    await shot("pack-public");
    await fitsPhone(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot("pack-public-wide");
  });

  await test.step("an unknown serial says so", async () => {
    await page.goto("/p/NOPE-000000");
    await expect(page.getByRole("alert")).toHaveText("No pack has this serial.");
  });

  await test.step("a signed-in driver sees the public page", async () => {
    await signIn(page, driver.email, driver.password);
    await page.goto(`/p/${serial}`);
    await expect(page.getByRole("heading", { name: serial, level: 1 })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: "Voltcell" })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/p/${serial}$`));
  });

  await test.step("an admin is taken to the pack page", async () => {
    await page.context().clearCookies();
    await signIn(page, admin.email, admin.password);
    await page.goto(`/p/${serial.toLowerCase()}`);
    await expect(page).toHaveURL(new RegExp(`/packs/${serial}$`));
    await expect(page.getByRole("heading", { name: serial, level: 1 })).toBeVisible();
    await expect(page.getByRole("list", { name: "History" })).toBeVisible();
  });

  await test.step("a damage report on the pack page links its incident PDF", async () => {
    // reported through the app's route (a raw pack_events write is refused: issue 43), by the
    // admin signed in above, who may report any pack
    const reported = await page.request.post(`/api/packs/${serial}/damage`, {
      headers: { "Idempotency-Key": crypto.randomUUID() },
      data: { note: "Swollen casing", photos: [] },
    });
    expect(reported.status(), await reported.text()).toBe(200);
    await page.goto(`/packs/${serial}`);
    const history = page.getByRole("list", { name: "History" });
    await expect(history.getByText("Damage reported", { exact: true })).toBeVisible();
    const download = page.waitForEvent("download");
    await history.getByRole("link", { name: "Report (PDF)" }).click();
    const file = await (await download).path();
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
    expect(text).toContain(`Incident report — pack ${serial}`);
    expect(text).toContain("Note: Swollen casing");
    expect(text).toContain(`Reported by: ${admin.firstName} ${admin.lastName}`);
    await expectNoAxeViolations(page, "the pack page with a damage report");
  });
});
