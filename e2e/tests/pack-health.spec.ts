// Pack health on screen (issue 46, DESIGN.md §16), on a phone: an admin imports a CSV of BMS
// readings built from packs the test mints (a preview names the bad row by its line first), sees
// the worn packs flagged in the packs list (filter "Worn", kept in the URL) and in the Home's
// attention strip, opens a worn pack and reads its state-of-health chart and the same figures
// as text, then lowers the model's threshold on the models list and sees a pack no longer worn
// (the server agreeing, polled through the API); the liaison reads the models list without its
// Edit buttons. Every new screen passes axe and fits 360 px; screenshots at 360, 390 and 1280 px.
// Phone only (@phone): the width an admin counts shelves and reads a pack's label with.
import type { Page } from "@playwright/test";
import { expectNoAxeViolations, tabTo } from "../a11y";
import { apiAs, expect, keyed, seedUser, setPackTracking, signIn, test } from "../fixtures";

const DAY = 86_400_000;
/** ago is an RFC 3339 time days before now, to the second. */
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * fits checks that the page does not scroll sideways at width px: measured against the width
 * set, not innerWidth (a phone browser widens its layout viewport to fit content that overflows).
 */
async function fits(page: Page, width: number) {
  await page.setViewportSize({ width, height: 800 });
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width} px`).toBeLessThanOrEqual(width);
}

/** shots saves the page at 360, 390 and 1280 px, checking that it fits each, and leaves the phone's 390 px. */
async function shots(page: Page, shot: (name: string) => Promise<void>, name: string) {
  for (const width of [360, 1280, 390]) {
    await fits(page, width);
    await shot(`${name}-${width}`);
  }
}

/**
 * chargeOnce records one completed charge of serial with the charger's energy: a driver drops a
 * dead battery, the admin charges it and completes the session naming the pack (pack tracking
 * optional for the while: the master admin's setting).
 */
async function chargeOnce(api: Parameters<typeof keyed>[0], driverApi: Parameters<typeof keyed>[0], serial: string, energyWh: number) {
  await keyed(driverApi, "/api/driver/dropoff-batteries", { goodBatteries: 0, deadBatteries: 1, notes: "flat" });
  const started = (await keyed(api, "/api/start-charging", { chargerType: "4A", quantity: 1 })) as { session: { id: string } };
  await keyed(api, `/api/admin/charge/${started.session.id}/complete`, { packs: [serial], energyWh });
}

test("an admin imports readings, sees the worn packs flagged and reads a pack's health chart @phone", async ({ page, pb, playwright, shot, unique }) => {
  test.slow(); // four axe runs and three widths of screenshots on a loaded 2-core machine
  const admin = { email: unique("health-admin"), password: "admin-secret-1", firstName: "Hedda", lastName: "Health" };
  const master = { email: unique("health-master"), password: "master-secret-1", firstName: "Mads", lastName: "Master" };
  const driver = { email: unique("health-driver"), password: "driver-secret-1", firstName: "Dag", lastName: "Driver" };
  await seedUser(pb, { ...admin, role: "admin" });
  await seedUser(pb, { ...master, role: "master_admin" });
  await seedUser(pb, driver);
  await signIn(page, admin.email, admin.password);
  const stamp = Date.now().toString(36).toUpperCase();
  const lot = `HEALTH-${stamp}`;
  const model = `Nova Health ${stamp}`;
  const minted = (await keyed(page.request, "/api/admin/packs/mint", {
    count: 4,
    model,
    chemistry: "NMC",
    nominalWh: 720,
    manufacturer: "Voltcell",
    lot,
    manufactured: "2025-03",
  })) as { packs: { serial: string }[] };
  const [fine, tired, fading, unread] = minted.packs.map((p) => p.serial) as [string, string, string, string];

  // the tired pack has been charged once, the charger reporting 540 Wh
  const masterApi = await apiAs(playwright.request, master);
  const driverApi = await apiAs(playwright.request, driver);
  await setPackTracking(masterApi, "optional");
  try {
    await chargeOnce(page.request, driverApi, tired, 540);
  } finally {
    await setPackTracking(masterApi, "off");
  }

  // fine: healthy; tired: under the default 80% threshold (slowly: 0.5 points in 30 days); fading: lost 6 points in 25 days; unread: no readings
  const header = "serial,time,source,fullAh,designAh,cycles,soh,maxTempC";
  const rows = [
    `${fine},${ago(60)},bms,14.6,15,120,97,31`,
    `${fine},${ago(5)},bms,14.4,15,150,96,33`,
    `${tired},${ago(90)},bms,11.1,15,610,74,35`,
    `${tired},${ago(40)},bms,10.9,15,660,72.5,38`,
    `${tired},${ago(3)},bms,10.8,15,700,72,64`,
    `${fading},${ago(25)},bms,13.8,15,300,92,30`,
    `${fading},${ago(2)},bms,12.9,15,330,86,31`,
  ];

  await test.step("the preview names the bad row by its line; the fixed file is applied", async () => {
    await page.goto("/packs");
    await page.getByRole("button", { name: "Import readings" }).click();
    const dialog = page.getByRole("dialog", { name: "Import readings" });
    await expect(dialog.getByText(/^serial,time,source$/)).toBeVisible();
    const csv = dialog.getByLabel("Or paste the CSV");
    // line 4: a state of health that is not a number
    await csv.fill([header, rows[0], rows[1], `${tired},${ago(3)},bms,10.8,15,700,lots,64`].join("\n"));
    await expect(dialog.getByRole("status")).toHaveText("1 row has problems — fix it and the preview follows. Nothing was imported.");
    const problems = dialog.getByRole("region", { name: "Rows with problems" });
    await expect(problems.getByRole("row", { name: new RegExp(`^4 ${tired}`) })).toContainText("soh");
    await expect(dialog.getByRole("button", { name: "Apply", exact: true })).toBeDisabled();
    await expectNoAxeViolations(page, "the readings preview");
    expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await shot("pack-health-import-preview");

    await csv.fill([header, ...rows].join("\n"));
    await expect(dialog.getByRole("status")).toHaveText("7 readings for 3 packs can be imported.");
    await dialog.getByRole("button", { name: "Apply 7 readings" }).click();
    await expect(dialog.getByRole("status")).toContainText("7 readings imported");
    const worn = dialog.getByRole("list", { name: "Worn packs" });
    await expect(worn.getByRole("link", { name: tired })).toBeVisible();
    await expect(worn.getByRole("link", { name: fading })).toBeVisible();
    await expect(worn.getByRole("link", { name: fine })).toHaveCount(0);
    await shot("pack-health-imported");
    await dialog.getByRole("link", { name: "See worn packs" }).click();
    await expect(dialog).toBeHidden();
  });

  await test.step("the list's Worn filter shows them with their reasons, and the URL keeps it", async () => {
    await expect(page).toHaveURL(/[?&]worn=1(&|$)/);
    await page.getByLabel("Lot").fill(lot);
    await expect(page).toHaveURL(new RegExp(`[?&]lot=${lot}(&|$)`));
    const list = page.getByRole("list", { name: "Packs" });
    await expect(list.getByRole("listitem")).toHaveCount(2);
    const tiredRow = list.getByRole("listitem").filter({ hasText: tired });
    await expect(tiredRow.getByText("Worn", { exact: true })).toBeVisible();
    await expect(tiredRow).toContainText("72");
    await expect(list.getByRole("listitem").filter({ hasText: fading })).toContainText(/30 days/);
    // a reload keeps the filters
    await page.reload();
    await expect(page.getByRole("button", { name: /^Worn/ })).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByRole("list", { name: "Packs" }).getByRole("listitem")).toHaveCount(2);
    await expectNoAxeViolations(page, "the worn packs");
    await shots(page, shot, "pack-health-worn-list");
  });

  await test.step("the attention strip counts the worn packs and opens the filtered list", async () => {
    const attention = (await (await page.request.get("/api/admin/attention")).json()) as { wornPacks: number };
    expect(attention.wornPacks).toBeGreaterThanOrEqual(2);
    await page.goto("/");
    const strip = page.getByRole("region", { name: "Needs attention" });
    const item = strip.getByRole("link", { name: new RegExp(`^${attention.wornPacks} worn packs`) });
    await expect(item).toBeVisible();
    await item.click();
    await expect(page).toHaveURL(/\/packs\?worn=1$/);
    await expect(page.getByRole("button", { name: /^Worn/ })).toHaveAttribute("aria-pressed", "true");
  });

  await test.step("a worn pack's page: its health in figures, its chart, and the same figures as text", async () => {
    await page.goto(`/packs/${tired}`);
    await expect(page.getByRole("heading", { name: tired, level: 1 })).toBeVisible();
    const health = page.getByRole("region", { name: "Health" });
    // a fact's value: the dd after its dt
    const fact = (term: string) => health.locator(`dt:text-is("${term}") + dd`);
    await expect(fact("State of health")).toHaveText(/^72%, from the pack's BMS, /);
    await expect(fact("Capacity")).toHaveText(/^10\.8 of 15 Ah/);
    await expect(fact("Worn")).toHaveText(/^Yes: /);
    // one charge with the charger's energy: 540 Wh ÷ 720 Wh nominal
    await expect(fact("Charges")).toHaveText("1");
    await expect(fact("Full cycles")).toHaveText("0.8");
    await expect(fact("Energy throughput")).toHaveText("540 Wh");
    await expect(fact("30-day trend")).toHaveText(/Lost \d+(\.\d+)? points? in 30 days/);
    // the chart: a canvas drawn from the library's lazy chunk, hidden from screen readers
    const sohFigure = page.locator("figure").filter({ has: page.getByText("State of health over time", { exact: true }) });
    const canvas = sohFigure.locator("canvas");
    await expect(canvas).toBeVisible();
    expect((await canvas.boundingBox())!.width).toBeGreaterThan(200);
    // its figures as text for screen readers: three readings, oldest first
    const table = sohFigure.getByRole("table", { name: /State of health readings/ });
    await expect(table.getByRole("row")).toHaveCount(4);
    await expect(table.getByRole("row").nth(1)).toContainText("74%");
    await expect(table.getByRole("row").last()).toContainText("72%");
    // its charges per week: one this week, drawn and in a table
    const weeks = page.locator("figure").filter({ has: page.getByText("Charges per week", { exact: true }) });
    await expect(weeks.locator("canvas")).toBeVisible();
    await expect(weeks.getByRole("table", { name: /Completed charges per week/ }).getByRole("row").last()).toContainText(/1$/);
    await expect(health).toContainText("Over temperature");
    await expectNoAxeViolations(page, "the pack's health");
    await shots(page, shot, "pack-health-page");
  });

  await test.step("a pack without readings says so", async () => {
    await page.goto(`/packs/${unread}`);
    const sohFigure = page.locator("figure").filter({ has: page.getByText("State of health over time", { exact: true }) });
    await expect(sohFigure).toContainText("No readings yet");
    await expect(sohFigure.locator("canvas")).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Health" }).locator('dt:text-is("Full cycles") + dd')).toHaveText(/^at most 0/);
  });

  await test.step("the models list: lowering the threshold to 70% leaves only the fading pack worn", async () => {
    await page.goto("/packs");
    await page.getByRole("link", { name: "Models" }).click();
    await expect(page.getByRole("heading", { name: "Pack models", level: 1 })).toBeVisible();
    const card = page.getByRole("list", { name: "Pack models" }).getByRole("listitem").filter({ has: page.getByRole("heading", { name: model }) });
    await expect(card.getByText("2 worn packs", { exact: true })).toBeVisible();
    // edited from the keyboard: Enter on Edit, Tab to the threshold, Enter saves; focus comes back to Edit
    const edit = card.getByRole("button", { name: `Edit ${model}` });
    await edit.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: `Model ${model}` });
    const threshold = dialog.getByLabel("End-of-life threshold (%)");
    await tabTo(page, threshold);
    await threshold.selectText();
    await page.keyboard.type("101");
    await page.keyboard.press("Enter");
    await expect(dialog.getByText("The end-of-life threshold must be a number from 1 to 100 (%)")).toBeVisible();
    await expectNoAxeViolations(page, "the model dialog");
    await threshold.selectText();
    await page.keyboard.type("70");
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(edit).toBeFocused();
    await expect(card.getByText("1 worn pack", { exact: true })).toBeVisible();
    await expect
      .poll(async () => ((await (await page.request.get(`/api/packs?worn=1&lot=${lot}`)).json()) as { packs: { serial: string }[] }).packs.map((p) => p.serial))
      .toEqual([fading]);
    await expectNoAxeViolations(page, "the models list");
    await shots(page, shot, "pack-health-models");
  });
});

test("the liaison reads the pack models but cannot edit them @phone", async ({ page, pb, playwright, unique }) => {
  const admin = { email: unique("health-admin2"), password: "admin-secret-1", firstName: "Ines", lastName: "Inventory" };
  const liaison = { email: unique("health-liaison"), password: "liaison-secret-1", firstName: "Lior", lastName: "Liaison" };
  await seedUser(pb, { ...admin, role: "admin" });
  await seedUser(pb, { ...liaison, role: "corporate_liason" });
  const model = `Bolt Health ${Date.now().toString(36).toUpperCase()}`;
  await keyed(await apiAs(playwright.request, admin), "/api/admin/packs/mint", { count: 2, model, nominalWh: 500 });
  await signIn(page, liaison.email, liaison.password);
  await page.goto("/packs");
  await page.getByRole("link", { name: "Models" }).click();
  await expect(page.getByRole("heading", { name: "Pack models", level: 1 })).toBeVisible();
  const card = page.getByRole("list", { name: "Pack models" }).getByRole("listitem").filter({ has: page.getByRole("heading", { name: model }) });
  await expect(card.locator('dt:text-is("Packs") + dd')).toHaveText("2");
  await expect(card.locator('dt:text-is("Nominal energy") + dd')).toHaveText("500 Wh");
  await expect(card.locator('dt:text-is("End-of-life threshold") + dd')).toHaveText("80%");
  await expect(card.getByText("Defaults")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Edit/ })).toHaveCount(0);
  await expectNoAxeViolations(page, "the models list for the liaison");
});
