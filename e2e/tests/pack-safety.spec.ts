// Pack safety (DESIGN.md §14, issue 37 items 2–4) at phone size: a driver reports a damaged pack
// with a photo while offline (the report and its photo wait in the outbox); back online the pack
// is quarantined with the photo in its history and the admin's attention strip shows it; the
// admin recalls the pack's lot from the packs page after a preview, and the recall page lists
// every recalled pack with its last holder, following live as one comes back to the bay; the
// driver's holdings ask for the recalled pack back. Its own lot and users: nothing another spec
// counts on (pack tracking is optional for the test and off again after it).
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "../a11y";
import { newDriver } from "../field";
import { apiAs, expect, keyed, seedUser, setPackTracking, signIn, test, toast } from "../fixtures";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

type Pack = { serial: string; state: string; recall?: { id: string; reason: string }; history: { kind: string; reason?: string; photos?: string[] }[] };

function status(page: Page) {
  return page.getByTestId("outbox-status");
}

/** fitsPhone checks the page does not scroll sideways at 360 px (then restores the viewport). */
async function fitsPhone(page: Page, what: string) {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 780 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${what} at 360 px`).toBeLessThanOrEqual(0);
  if (before) await page.setViewportSize(before);
}

/** wide takes the screenshot name again at 1280 px (then back to the phone). */
async function wide(page: Page, shot: (name: string) => Promise<void>, name: string) {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(`${name}-wide`);
  if (before) await page.setViewportSize(before);
}

// the journey runs the phone's worker, an offline report, two roles and a live recall page
test.describe.configure({ timeout: 150_000 });
test.use({ serviceWorkers: "allow" });

test("a driver reports a damaged pack offline; the admin sees it, recalls its lot and follows the recall live", async ({ page, context, pb, playwright, shot, unique }) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const lot = `E2E-SAFETY-${stamp}`;
  const admin = { email: unique("safety-admin"), password: "admin-secret-1", firstName: "Quinn", lastName: `Quarantine${stamp}` };
  const master = { email: unique("safety-master"), password: "master-secret-1", firstName: "Mara", lastName: "Master" };
  await seedUser(pb, { ...admin, role: "admin" });
  await seedUser(pb, { ...master, role: "master_admin" });
  const adminApi = await apiAs(playwright.request, admin);
  const masterApi = await apiAs(playwright.request, master);
  await setPackTracking(masterApi, "optional");
  try {
    const driverName = { firstName: "Dana", lastName: `Damage${stamp}` };
    const driverEmail = unique("safety-driver");
    const driver = await newDriver(page, pb, driverEmail, driverName, { worker: true });
    const minted = (await keyed(adminApi, "/api/admin/packs/mint", {
      count: 6,
      model: "Nova 48V 15Ah",
      chemistry: "NMC",
      nominalWh: 720,
      manufacturer: "Voltcell",
      lot,
      manufactured: "2026-03",
    })) as { packs: { serial: string }[] };
    const serials = minted.packs.map((p) => p.serial);
    const [damaged, recalled] = [serials[0]!, serials[1]!];
    // one pack of another lot, picked up by the driver 6 days ago (a queued pickup's occurredAt)
    // and not seen since: missing once packs go missing after 5 days. (Its last sighting is the
    // ledger's: a raw write of it through /_/ is refused, issue 43.)
    const stray = ((await keyed(adminApi, "/api/admin/packs/mint", { count: 1, model: "Nova 48V 15Ah", lot: `${lot}-M` })) as { packs: { id: string; serial: string }[] }).packs[0]!;
    await keyed(adminApi, "/api/admin/assignments", { userId: driver.id, quantity: 2, assignmentType: "home_charger", packs: [damaged, recalled] });
    await keyed(masterApi, "/api/admin/settings", { settings: [{ key: "pack_missing_days", value: "5" }] });
    await keyed(page.request, "/api/driver/pickup", { quantity: 1, notes: "stray pack", packs: [stray.serial], occurredAt: new Date(Date.now() - 6 * 86_400_000).toISOString() });
    let recallUrl = "";
    const packOf = async (serial: string): Promise<Pack> => (await adminApi.get(`/api/packs/${serial}`)).json();

    await test.step("offline, the driver reports a damaged pack with a photo: it waits on the phone", async () => {
      await page.reload();
      await expect(page.getByRole("link", { name: /^Packs you hold: 3/ })).toBeVisible();
      await context.setOffline(true);
      await page.getByRole("button", { name: "Report a damaged pack" }).click();
      const dialog = page.getByRole("dialog", { name: "Report a damaged pack" });
      await dialog.getByRole("group", { name: "Packs you hold" }).getByRole("button", { name: damaged }).click();
      await expect(dialog.getByLabel("Pack serial")).toHaveValue(damaged);
      await dialog.getByLabel("What is wrong").fill("Case swollen on one side, warm to the touch");
      await dialog.getByLabel(/^Photos/).setInputFiles({ name: "swollen.png", mimeType: "image/png", buffer: PNG });
      await expect(dialog.getByRole("list", { name: "Photos to send" }).getByRole("img", { name: "swollen.png" })).toBeVisible();
      await expectNoAxeViolations(page, "the damage report");
      await shot("pack-safety-report");
      await wide(page, shot, "pack-safety-report");
      await dialog.getByRole("button", { name: "Send report" }).click();
      await expect(toast(page).getByText("Saved on this phone")).toBeVisible();
      await expect(dialog).toBeHidden();
      await expect(status(page)).toHaveText("Offline · 2 actions waiting");
      expect((await packOf(damaged)).state).toBe("in_service");
    });

    await test.step("back online: the photo, then the report naming it; the pack is quarantined", async () => {
      await context.setOffline(false);
      await expect(status(page)).toHaveText("All sent", { timeout: 30_000 });
      await expect.poll(async () => (await packOf(damaged)).state).toBe("quarantined");
      const report = (await packOf(damaged)).history.find((e) => e.kind === "damage");
      expect(report?.reason).toBe("Case swollen on one side, warm to the touch");
      expect(report?.photos).toHaveLength(1);
    });

    await signIn(page, admin.email, admin.password);

    await test.step("the admin's attention strip shows the damaged pack; its page shows the report and the decisions", async () => {
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible({ timeout: 30_000 });
      const strip = page.getByRole("region", { name: /attention/i });
      await strip.getByRole("link", { name: /damaged packs? reported/ }).click();
      await expect(page.getByRole("button", { name: /^Quarantined/, pressed: true })).toBeVisible();
      await page.getByLabel("Search serial").fill(damaged);
      await page.getByRole("list", { name: "Packs" }).getByRole("link", { name: new RegExp(`^${damaged} `) }).click();
      await expect(page.getByRole("heading", { name: damaged, level: 1 })).toBeVisible();
      const entry = page.getByRole("list", { name: "History" }).getByRole("listitem").filter({ has: page.getByText("Damage reported", { exact: true }) });
      await expect(entry).toContainText("Case swollen on one side");
      await expect(entry).toContainText(`${driverName.firstName} ${driverName.lastName}`);
      const img = entry.getByRole("img", { name: "Photo 1 of the damage report" });
      await expect(img).toBeVisible();
      // a lazy image loads as it nears the screen: the history is below the pack's health on a phone
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
      const decide = page.getByRole("region", { name: "Decide about this pack" });
      for (const b of ["Send to maintenance", "Back in service", "Retire"]) await expect(decide.getByRole("button", { name: b })).toBeVisible();
      await expectNoAxeViolations(page, "a quarantined pack's page");
      await fitsPhone(page, "a quarantined pack's page");
      await shot("pack-safety-quarantined");
      await wide(page, shot, "pack-safety-quarantined");
    });

    await test.step("the admin recalls the lot after the preview; the recall page lists the holder", async () => {
      await page.goto("/packs");
      await page.getByRole("button", { name: "Recall packs" }).click();
      const dialog = page.getByRole("dialog", { name: "Recall packs" });
      await dialog.getByRole("combobox", { name: "Lot" }).fill(lot);
      await expect(dialog.getByRole("status")).toContainText("5 packs match · 1 already quarantined");
      await expect(dialog.getByRole("list", { name: "Where they are" })).toContainText(`${driverName.firstName} ${driverName.lastName}`);
      await dialog.getByLabel("Reason").fill("Supplier notice: cells of this lot may overheat");
      await expectNoAxeViolations(page, "the recall dialog");
      await shot("pack-safety-recall-dialog");
      await wide(page, shot, "pack-safety-recall-dialog");
      await dialog.getByRole("button", { name: "Recall 5 packs" }).click();
      await expect(page.getByRole("heading", { name: `Recall: Lot ${lot}`, level: 1 })).toBeVisible();
      await expect(page.getByText("0 of 5 back in the bay")).toBeVisible();
      recallUrl = new URL(page.url()).pathname;
      const row = page.getByRole("list", { name: "Recalled packs" }).getByRole("listitem").filter({ hasText: recalled });
      await expect(row).toContainText(`${driverName.firstName} ${driverName.lastName}`);
      await expect(page.getByRole("list", { name: "Recalled packs" }).getByRole("listitem")).toHaveCount(5);
      expect((await packOf(recalled)).state).toBe("quarantined");
      await expectNoAxeViolations(page, "the recall page");
      await fitsPhone(page, "the recall page");
      await shot("pack-safety-recall-page");
    });

    await test.step("the driver's holdings ask for both packs back; My packs marks the recalled one", async () => {
      await signIn(page, driverEmail, "driver-secret-1");
      await page.goto("/");
      const held = page.getByRole("link", { name: /^Packs you hold: 3/ });
      await expect(held).toContainText("2 packs recalled — bring them to the bay");
      await expectNoAxeViolations(page, "the driver home with recalled packs");
      await fitsPhone(page, "the driver home with recalled packs");
      await shot("pack-safety-driver-home");
      await held.click();
      const mine = page.getByRole("list", { name: "My packs" });
      await expect(mine.getByRole("listitem").filter({ hasText: recalled })).toContainText("Recalled — bring it to the bay");
      await expect(mine.getByRole("listitem").filter({ hasText: damaged })).toContainText("Quarantined — bring it to the bay");
      await expectNoAxeViolations(page, "My packs with recalled packs");
      await fitsPhone(page, "My packs with recalled packs");
      await shot("pack-safety-driver-packs");
    });

    await test.step("the recall page follows live: the driver drops the recalled pack off", async () => {
      await signIn(page, admin.email, admin.password);
      await page.goto(recallUrl);
      await expect(page.getByText("0 of 5 back in the bay")).toBeVisible({ timeout: 20_000 });
      const driverApi = await apiAs(playwright.request, { email: driverEmail, password: "driver-secret-1" });
      await keyed(driverApi, "/api/driver/dropoff-batteries", { goodBatteries: 0, deadBatteries: 1, notes: "Recalled pack back", deadPacks: [recalled] });
      await expect(page.getByText("1 of 5 back in the bay")).toBeVisible({ timeout: 20_000 });
      await expect(page.getByRole("list", { name: "Recalled packs" }).getByRole("listitem").filter({ hasText: recalled })).toContainText("In the bay");
      await wide(page, shot, "pack-safety-recall-page");
      await page.getByRole("link", { name: "← All recalls" }).click();
      await expect(page.getByRole("list", { name: "Recalls" }).getByRole("link", { name: new RegExp(`^Lot ${lot}`) })).toBeVisible();
      await expectNoAxeViolations(page, "the recalls list");
    });

    await test.step("Missing lists the pack unseen for 6 days with its last holder; the admin declares it lost", async () => {
      await page.goto("/packs");
      await page.getByRole("button", { name: /^Missing/ }).click();
      await page.getByLabel("Search serial").fill(stray.serial);
      const row = page.getByRole("list", { name: "Missing packs" }).getByRole("listitem").filter({ hasText: stray.serial });
      await expect(row).toContainText(`Last holder${driverName.firstName} ${driverName.lastName}`);
      await expect(row).toContainText("6 days ago");
      await expectNoAxeViolations(page, "the missing packs");
      await fitsPhone(page, "the missing packs");
      await shot("pack-safety-missing");
      await wide(page, shot, "pack-safety-missing");
      await row.getByRole("button", { name: `Declare lost: ${stray.serial}` }).click();
      const dialog = page.getByRole("dialog", { name: `Declare lost: ${stray.serial}` });
      await dialog.getByLabel("Reason").fill("Not seen since the driver left the route");
      await dialog.getByRole("button", { name: "Declare lost" }).click();
      await expect(toast(page).getByText("Pack state changed")).toBeVisible();
      await expect.poll(async () => (await packOf(stray.serial)).state).toBe("lost");
    });
  } finally {
    await setPackTracking(masterApi, "off");
    await keyed(masterApi, "/api/admin/settings", { settings: [{ key: "pack_missing_days", value: "7" }] });
  }
});
