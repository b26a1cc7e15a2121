// Packs (DESIGN.md §14, issue 35): an admin mints 24 packs, downloads their label sheet (a PDF
// whose text holds the 24 serials), finds them in the packs list by lot, opens a pack page and
// sees its history; every screen passes axe and none scrolls sideways at 360 px.
import { execFileSync } from "node:child_process";
import { expectNoAxeViolations } from "../a11y";
import { expect, seedUser, signIn, test } from "../fixtures";

test("an admin mints 24 packs, downloads the labels and opens a pack", async ({ page, pb, shot, unique }) => {
  const admin = { email: unique("packs-admin"), password: "admin-secret-1", firstName: "Pia", lastName: "Packer" };
  await seedUser(pb, { ...admin, role: "admin" });
  await signIn(page, admin.email, admin.password);
  const lot = `E2E-${test.info().project.name.toUpperCase()}-${Date.now().toString(36).toUpperCase()}`;

  await page.goto("/packs");
  await expect(page.getByRole("heading", { name: "Packs", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Mint packs" }).click();
  const dialog = page.getByRole("dialog", { name: "Mint packs" });
  await dialog.getByLabel("Number of packs").fill("24");
  await dialog.getByLabel("Model").fill("Nova 48V 15Ah");
  await dialog.getByLabel("Chemistry").fill("NMC");
  await dialog.getByLabel("Nominal Wh").fill("720");
  await dialog.getByLabel("Manufacturer").fill("Voltcell");
  await dialog.getByLabel("Lot").fill(lot);
  await dialog.getByLabel("Month of manufacture").fill("2026-03");
  await expectNoAxeViolations(page, "the mint dialog");
  await dialog.getByRole("button", { name: "Mint", exact: true }).click();
  const status = dialog.getByRole("status");
  await expect(status).toHaveText(/^24 packs registered: [A-Z0-9]+-\d{6} to [A-Z0-9]+-\d{6}$/);
  const [first, last] = ((await status.textContent()) ?? "").match(/[A-Z0-9]+-\d{6}/g) ?? [];

  // the label sheet: a PDF with the 24 serials in print (its QR codes are decoded by the Go test)
  const download = page.waitForEvent("download");
  await dialog.getByRole("link", { name: "Download labels" }).click();
  const file = await (await download).path();
  const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
  const serials = text.match(/[A-Z0-9]+-\d{6}/g) ?? [];
  expect(new Set(serials).size).toBe(24);
  expect(serials).toContain(first);
  expect(serials).toContain(last);
  await dialog.getByRole("button", { name: "Done" }).click();

  // the list, by lot: 24 packs in service, counted per state
  await page.getByLabel("Lot").fill(lot);
  const list = page.getByRole("list", { name: "Packs" });
  await expect(list.getByRole("listitem")).toHaveCount(24);
  await expect(page.getByRole("button", { name: "In service 24" })).toBeVisible();
  await page.getByLabel("Search serial").fill(first!);
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expectNoAxeViolations(page, "the packs list");
  await shot("packs-list");

  // the pack page: where it is, its specs and its history
  await list.getByRole("link", { name: new RegExp(first!) }).click();
  await expect(page.getByRole("heading", { name: first, level: 1 })).toBeVisible();
  await expect(page.getByText("Never scanned")).toBeVisible();
  await expect(page.getByText(lot)).toBeVisible();
  const history = page.getByRole("list", { name: "History" });
  await expect(history.getByRole("listitem")).toHaveCount(1);
  await expect(history.getByText("Registered (minted)")).toBeVisible();
  await expect(history.getByText("Pia Packer")).toBeVisible();

  // a state change with its reason joins the history
  await page.getByRole("combobox", { name: "State" }).click();
  await page.getByRole("option", { name: "Maintenance" }).click();
  await page.getByLabel("Reason").fill("Cell balance check");
  await page.getByRole("button", { name: "Change state" }).click();
  await expect(history.getByRole("listitem")).toHaveCount(2);
  await expect(history.getByText("State: In service → Maintenance")).toBeVisible();
  await expect(history.getByText("Cell balance check")).toBeVisible();
  await expect
    .poll(async () => (await (await page.request.get(`/api/packs/${first}`)).json()).state)
    .toBe("maintenance");
  await expectNoAxeViolations(page, "the pack page");
  await shot("pack-page");

  // a label's QR code opens the pack page
  await page.goto(`/p/${first}`);
  await expect(page).toHaveURL(new RegExp(`/packs/${first}$`));
  await expect(page.getByRole("heading", { name: first, level: 1 })).toBeVisible();

  // nothing scrolls sideways on a 360 px phone
  await page.setViewportSize({ width: 360, height: 780 });
  for (const path of [`/packs/${first}`, "/packs"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${path} at 360 px`).toBeLessThanOrEqual(0);
  }
});

test("an admin imports packs after a preview; a master admin turns pack tracking on", async ({ page, pb, shot, unique }) => {
  const master = { email: unique("packs-master"), password: "master-secret-1", firstName: "Mia", lastName: "Master" };
  await seedUser(pb, { ...master, role: "master_admin" });
  await signIn(page, master.email, master.password);
  const stamp = Date.now().toString(36).toUpperCase();
  const a = `IMP${stamp}-1`;
  const b = `IMP${stamp}-2`;

  await test.step("the import preview names the bad row; the fixed file imports", async () => {
    await page.goto("/packs");
    await page.getByRole("button", { name: "Import CSV" }).click();
    const dialog = page.getByRole("dialog", { name: "Import packs" });
    const csv = dialog.getByLabel("Or paste the CSV");
    await csv.fill(`serial,model,lot,manufactured\n${a},Nova 48,L-${stamp},2025-11\n${a},Nova 48,L-${stamp},2025-13\n`);
    await dialog.getByRole("button", { name: "Preview" }).click();
    await expect(dialog.getByRole("status")).toHaveText("1 of 2 rows can be imported; 1 row has problems — fix them and preview again.");
    const preview = dialog.getByRole("region", { name: "Import preview" });
    await expect(preview.getByRole("row", { name: new RegExp(`^3 ${a}`) })).toContainText(`Serial ${a} is also on line 2`);
    await expect(preview.getByRole("row", { name: new RegExp(`^3 ${a}`) })).toContainText("Month of manufacture must be YYYY-MM");
    await expect(dialog.getByRole("button", { name: "Import", exact: true })).toBeDisabled();
    await expectNoAxeViolations(page, "the import preview");
    // the preview table scrolls in its own box; the dialog itself never runs off a phone's screen
    expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await shot("packs-import-preview");
    await csv.fill(`serial,model,lot,manufactured\n${a},Nova 48,L-${stamp},2025-11\n${b},Nova 48,L-${stamp},2025-12\n`);
    await dialog.getByRole("button", { name: "Preview" }).click();
    await dialog.getByRole("button", { name: "Import 2 packs" }).click();
    await expect(dialog).toBeHidden();
    await expect
      .poll(async () => (await (await page.request.get(`/api/packs?lot=L-${stamp}`)).json()).total)
      .toBe(2);
  });

  await test.step("pack tracking on the System page; the assignment form then takes serials", async () => {
    await page.goto("/admin-system");
    const card = page.getByRole("region", { name: "Pack tracking" });
    await card.getByRole("combobox", { name: "Tracking mode" }).click();
    await page.getByRole("option", { name: /^Optional/ }).click();
    await card.getByRole("button", { name: "Save pack settings" }).click();
    await expect
      .poll(async () => (await (await page.request.get("/api/inventory")).json()).settings.pack_tracking)
      .toBe("optional");
    await expectNoAxeViolations(page, "the System page with pack tracking");
    await page.goto("/admin-driver-swaps");
    await expect(page.getByLabel("Pack serials (optional)")).toBeVisible();
    await shot("packs-assignment-serials");
    // back to off: the other specs on this server count batteries only
    const res = await page.request.post("/api/admin/settings", { data: { settings: [{ key: "pack_tracking", value: "off" }] } });
    expect(res.status(), await res.text()).toBe(200);
  });
});
