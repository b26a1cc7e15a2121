// The raw-data door (issue 43): a superuser in PocketBase's dashboard at /_/ reads everything,
// but the ledger is append-only for every writer but the app. Editing a movement's quantity and
// deleting a pack event there are refused with the server's message, which names the app's way
// to do it, and change nothing; editing a user's first name is saved and listed, with who made
// it, on the System page's audit list. The movement and the pack event are made through the
// app's routes (a pickup, a mint); the step under test is the dashboard.
import path from "node:path";
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "../a11y";
import { ADMIN, SCREENSHOTS, SUPERUSER } from "../env";
import { apiAs, expect, keyed, seedUser, signIn, test } from "../fixtures";

/** The server's refusals, as hooks/rawdata.go words them. */
const MOVEMENTS = "Movements are the ledger's record and cannot be changed here. Correct it on the Activity page.";
const PACK_EVENTS = "A pack's history is append-only and cannot be changed here. Change a pack's state on its page.";

/** dashboardToast is the dashboard's toast (PocketBase's own markup: it has no live-region role). */
const dashboardToast = (page: Page) => page.locator(".toasts-container");

/** openRecord opens one record's edit panel in /_/ as an admin would: the collection in the
 * sidebar, the record found by its id in the search bar, its row clicked. (PocketBase's own
 * markup: the sidebar items carry titles, the search bar a placeholder and no label.) */
async function openRecord(page: Page, collection: string, id: string) {
  await page.getByTitle(collection, { exact: true }).click();
  const search = page.locator('[data-placeholder="Search term or filter..."]');
  await search.click();
  await search.fill(`id = "${id}"`);
  await search.press("Enter");
  await page.getByRole("row").filter({ hasText: id }).click();
  await expect(page.getByRole("heading", { name: `Edit ${collection} record` })).toBeVisible();
}

/** closeRecord closes the edit panel, discarding the refused change. */
async function closeRecord(page: Page) {
  const panel = page.locator('[data-pb="recordUpsertModal"]');
  if (!(await panel.isVisible())) return; // a refused delete has closed it already
  await panel.getByRole("button", { name: "Close" }).click();
  const discard = page.getByRole("button", { name: /^(Yes|Discard|Close)/ }).filter({ hasNot: panel });
  if (await panel.isVisible()) await discard.last().click();
  await expect(panel).toBeHidden();
}

test("a superuser in /_/: ledger writes are refused with the app's way, a user's name is saved and on the audit list", async ({ page, pb, playwright, shot, unique }) => {
  test.slow(); // 20–34 s on a quiet machine: a third or more of the 60 s default, which a loaded 2-core CI machine passes
  const adminApi = await apiAs(playwright.request, ADMIN);
  const driver = { email: unique("raw-driver"), password: "driver-secret-1", firstName: "Rhea", lastName: "Rawlings" };
  const seeded = await seedUser(pb, driver);
  const driverApi = await apiAs(playwright.request, driver);
  const picked = (await keyed(driverApi, "/api/driver/pickup", { quantity: 1, notes: "raw door" })) as { movement: { id: string } };
  const movementId = picked.movement.id;
  const lot = `RAW-${Date.now().toString(36).toUpperCase()}`;
  const minted = (await keyed(adminApi, "/api/admin/packs/mint", { count: 1, model: "Nova 48V 15Ah", lot })) as { packs: { id: string }[] };
  const event = await pb.collection("pack_events").getFirstListItem(pb.filter("pack = {:id}", { id: minted.packs[0]!.id }));
  const stateBefore = await (await adminApi.get("/api/state")).json();

  await test.step("the superuser signs in to /_/", async () => {
    await page.goto("/_/");
    await page.getByLabel("Email").fill(SUPERUSER.email);
    await page.getByLabel("Password", { exact: true }).fill(SUPERUSER.password);
    // PocketBase limits superuser sign-ins per address (the fixtures signed in a moment ago)
    const login = page.getByRole("button", { name: "Login" });
    await expect(async () => {
      if (await login.isVisible()) await login.click();
      await expect(page.getByTitle("movements", { exact: true })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  });

  await test.step("a movement's quantity: refused with the message, nothing changed", async () => {
    await openRecord(page, "movements", movementId);
    await page.getByRole("spinbutton", { name: "quantity" }).fill("-7");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(dashboardToast(page)).toContainText(MOVEMENTS);
    await shot("raw-door-movement-refused");
    expect((await pb.collection("movements").getOne(movementId)).quantity).toBe(-1);
    await closeRecord(page);
  });

  await test.step("a pack event deleted: refused with the message, the event kept", async () => {
    await openRecord(page, "pack_events", event.id);
    await page.getByRole("button", { name: "More options" }).click();
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Delete record" }).click();
    await expect(dashboardToast(page)).toContainText(PACK_EVENTS);
    expect((await pb.collection("pack_events").getOne(event.id)).kind).toBe("created");
    await closeRecord(page);
  });

  await test.step("a user's first name: saved", async () => {
    await openRecord(page, "users", seeded.id);
    await page.getByRole("textbox", { name: "firstName" }).fill("Rhiannon");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(async () => (await pb.collection("users").getOne(seeded.id)).firstName).toBe("Rhiannon");
  });

  // the refused writes left the ledger as it was
  const stateAfter = await (await adminApi.get("/api/state")).json();
  expect(stateAfter.stats ?? stateAfter).toEqual(stateBefore.stats ?? stateBefore);

  await test.step("the System page's audit list shows the change, who made it and when", async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto("/admin-system");
    const audit = page.getByRole("region", { name: "Audit List" });
    const row = audit.getByRole("list", { name: "Audit list" }).getByRole("listitem").filter({ hasText: `users ${seeded.id}` }).first();
    await expect(row).toContainText("Changed");
    await expect(row).toContainText(`By${SUPERUSER.email} (superuser)`);
    await expect(row).toContainText("FieldsfirstName");
    await expect(audit.getByText(`movements ${movementId}`)).toHaveCount(0);
    await expectNoAxeViolations(page, "the System page's audit list");
    await row.scrollIntoViewIfNeeded();
    await audit.screenshot({ path: path.join(SCREENSHOTS, "desktop-audit-list-card.png") });
    await shot("system-audit-list");
    await page.setViewportSize({ width: 390, height: 844 });
    await row.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), "390 px").toBeLessThanOrEqual(0);
    await audit.screenshot({ path: path.join(SCREENSHOTS, "phone-width-audit-list-card.png") });
    await shot("system-audit-list-phone");
  });
});
