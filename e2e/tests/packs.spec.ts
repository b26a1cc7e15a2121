// Packs (DESIGN.md §14, issue 35): an admin mints 24 packs, downloads their label sheet (a PDF
// whose text holds the 24 serials), finds them in the packs list by lot, opens a pack page and
// sees its history; an admin assigns 3 of them to a driver by serial, and the driver's home, My
// packs and the pack page show exactly those 3, moved by the admin's assignment (the server
// agreeing, polled through the API); every screen passes axe and none scrolls sideways at 360 px.
import { execFileSync } from "node:child_process";
import { expectNoAxeViolations } from "../a11y";
import type { Page } from "@playwright/test";
import { apiAs, expect, seedUser, setPackTracking, signIn, test, toast } from "../fixtures";

/**
 * mintPacks mints 24 packs of lot through the Mint packs dialog on /packs (checked by axe),
 * downloads their label sheet and reads its serials in print (the Go test decodes the QR codes);
 * it closes the dialog and answers the first and last serials the dialog named and the sheet's.
 */
async function mintPacks(page: Page, lot: string) {
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

  // the label sheet: a PDF with the 24 serials in print
  const download = page.waitForEvent("download");
  await dialog.getByRole("link", { name: "Download labels" }).click();
  const file = await (await download).path();
  const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
  const serials = text.match(/[A-Z0-9]+-\d{6}/g) ?? [];
  expect(new Set(serials).size).toBe(24);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  return { first: first!, last: last!, serials };
}

/**
 * noSidewaysScroll checks that each of paths fits a 360 px phone and, with axe, that each of
 * axePaths passes there too (then restores the viewport). The page is measured against the
 * 360 px set, not innerWidth: a phone browser widens its layout viewport to fit content that
 * overflows (screens.spec.ts).
 */
async function noSidewaysScroll(page: Page, paths: string[], axePaths: string[] = []) {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 780 });
  for (const path of paths) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - 360), `${path} at 360 px`).toBeLessThanOrEqual(0);
    if (axePaths.includes(path)) await expectNoAxeViolations(page, `${path} at 360 px`);
  }
  if (before) await page.setViewportSize(before);
}

test("an admin mints 24 packs, downloads the labels and opens a pack", async ({ page, pb, shot, unique }) => {
  test.slow(); // five axe runs and a label sheet: ~40 s on a quiet machine, near the 60 s default beside the rest of make test
  const admin = { email: unique("packs-admin"), password: "admin-secret-1", firstName: "Pia", lastName: "Packer" };
  await seedUser(pb, { ...admin, role: "admin" });
  await signIn(page, admin.email, admin.password);
  const lot = `E2E-${test.info().project.name.toUpperCase()}-${Date.now().toString(36).toUpperCase()}`;

  const { first, last, serials } = await mintPacks(page, lot);
  expect(serials).toContain(first);
  expect(serials).toContain(last);

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

  // nothing scrolls sideways on a 360 px phone, and the list and the pack page pass axe there
  await noSidewaysScroll(page, [`/packs/${first}`, "/packs"], [`/packs/${first}`, "/packs"]);
});

test("an admin imports packs after a preview; a master admin turns pack tracking on", async ({ page, pb, shot, unique }) => {
  test.slow(); // five axe runs and a label sheet: ~40 s on a quiet machine, near the 60 s default beside the rest of make test
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
    await expect(page.getByRole("region", { name: "Manual Battery Assignment" }).getByRole("group", { name: "Packs" })).toBeVisible();
    await shot("packs-assignment-serials");
    // back to off: the other specs on this server count batteries only
    const res = await page.request.post("/api/admin/settings", { data: { settings: [{ key: "pack_tracking", value: "off" }] } });
    expect(res.status(), await res.text()).toBe(200);
  });
});

type PackItem = { serial: string; location: { key: string; kind: string; label: string; userId?: string } | null };
type PackList = { packs: PackItem[]; total: number };

test("an admin assigns 3 packs to a driver by serial; the driver holds exactly those 3 and sees their history", async ({
  page,
  pb,
  playwright,
  shot,
  unique,
}) => {
  // a journey of two people over six screens with seven axe runs: 37 s on a loaded 2-core CI box
  test.slow();
  const stamp = Date.now().toString(36).toUpperCase();
  const admin = { email: unique("packs-assigner"), password: "admin-secret-1", firstName: "Ada", lastName: `Assigner${stamp}` };
  const master = { email: unique("packs-mode"), password: "master-secret-1", firstName: "Max", lastName: "Mode" };
  const driver = { email: unique("packs-holder"), password: "driver-secret-1", firstName: "Dara", lastName: `Holder${stamp}` };
  await seedUser(pb, { ...admin, role: "admin" });
  await seedUser(pb, { ...master, role: "master_admin" });
  const driverRec = await seedUser(pb, driver);
  const driverName = `${driver.firstName} ${driver.lastName}`;
  const lot = `E2E-ASSIGN-${test.info().project.name.toUpperCase()}-${stamp}`;

  // pack tracking optional, set through the API by a master admin (the System page card is the
  // test above's); back to off at the end: the other specs on this server count batteries only
  const mode = await apiAs(playwright.request, master);
  const setMode = (value: "off" | "optional") => setPackTracking(mode, value);
  await setMode("optional");
  try {
    await signIn(page, admin.email, admin.password);
    const { serials } = await mintPacks(page, lot);
    // three of the sheet's serials, typed as a driver reads them off the labels
    const chosen = [serials[2]!, serials[11]!, serials[20]!];
    const sorted = [...chosen].sort();

    await test.step("the admin assigns 3 batteries naming their packs", async () => {
      const inventory = await (await page.request.get("/api/inventory")).json();
      expect(inventory.ready, "ready batteries to assign").toBeGreaterThanOrEqual(3);
      await page.goto("/admin-driver-swaps");
      const card = page.getByRole("region", { name: "Manual Battery Assignment" });
      await card.getByRole("combobox", { name: "Driver" }).click();
      await page.getByRole("option", { name: new RegExp(`^${driverName}`) }).click();
      await card.getByLabel("Quantity").fill("3");
      await card.getByRole("combobox", { name: "Assignment Type" }).click();
      await page.getByRole("option", { name: "Home Charger" }).click();
      const packs = card.getByRole("group", { name: "Packs" });
      for (const code of [chosen[0]!, chosen[1]!.toLowerCase(), chosen[2]!]) {
        await packs.getByLabel("Type a serial").fill(code);
        await packs.getByLabel("Type a serial").press("Enter");
      }
      await expect(packs.getByRole("list", { name: "Packs scanned" }).getByRole("listitem")).toHaveCount(3);
      await expectNoAxeViolations(page, "the assignment form with pack serials");
      await card.getByRole("button", { name: "Assign Batteries" }).click();
      const confirm = page.getByRole("dialog", { name: "Confirm Battery Assignment" });
      await expect(confirm.getByText(chosen.join(", "))).toBeVisible();
      await expectNoAxeViolations(page, "the assignment confirmation");
      await shot("packs-assign-confirm");
      await confirm.getByRole("button", { name: "Confirm" }).click();
      await expect(toast(page).getByText("Batteries assigned successfully")).toBeVisible();
    });

    await test.step("the server agrees: those 3 packs, and no other of the lot, are with the driver", async () => {
      await expect
        .poll(async () => {
          const list: PackList = await (await page.request.get(`/api/packs?lot=${lot}&location=field`)).json();
          return list.packs.map((p) => `${p.serial}@${p.location?.userId}`).sort();
        })
        .toEqual(sorted.map((s) => `${s}@${driverRec.id}`));
      const key = (await (await page.request.get(`/api/packs/${chosen[0]}`)).json()).location.key as string;
      const atHolder: PackList = await (await page.request.get(`/api/packs?location=${encodeURIComponent(key)}`)).json();
      expect(atHolder.packs.map((p) => p.serial).sort()).toEqual(sorted);
      const ready: PackList = await (await page.request.get(`/api/packs?lot=${lot}&location=unknown`)).json();
      expect(ready.total).toBe(21);
    });

    await test.step("the driver's home names the 3 packs; My packs lists exactly those", async () => {
      await signIn(page, driver.email, driver.password);
      await expect
        .poll(async () => ((await (await page.request.get("/api/packs")).json()) as PackList).packs.map((p) => p.serial).sort())
        .toEqual(sorted);
      await page.goto("/");
      await expect(page.getByRole("heading", { name: "Driver Home", level: 1 })).toBeVisible();
      const held = page.getByRole("link", { name: /^Packs you hold: 3/ });
      await expect(held).toBeVisible();
      for (const s of sorted.slice(0, 3)) await expect(held).toContainText(s);
      await expectNoAxeViolations(page, "the driver home with held packs");
      await shot("packs-driver-home");
      await held.click();
      await expect(page.getByRole("heading", { name: "My packs", level: 1 })).toBeVisible();
      const list = page.getByRole("list", { name: "My packs" });
      await expect(list.getByRole("listitem")).toHaveCount(3);
      for (const s of chosen) await expect(list.getByRole("link", { name: new RegExp(`^${s} `) })).toBeVisible();
      await expectNoAxeViolations(page, "My packs");
      await shot("packs-driver-list");
    });

    await test.step("the pack page: with the driver, moved there by the admin's assignment", async () => {
      const list = page.getByRole("list", { name: "My packs" });
      await list.getByRole("link", { name: new RegExp(`^${chosen[1]} `) }).click();
      await expect(page.getByRole("heading", { name: chosen[1], level: 1 })).toBeVisible();
      await expect(page.getByText(`${driverName} (home charger)`).first()).toBeVisible();
      const history = page.getByRole("list", { name: "History" });
      const moved = history.getByRole("listitem").filter({ hasText: `to ${driverName} (home charger)` });
      await expect(moved).toHaveCount(1);
      await expect(moved).toContainText(`Ada Assigner${stamp}`);
      await expect(moved).toContainText("assignment");
      const detail = await (await page.request.get(`/api/packs/${chosen[1]}`)).json();
      expect(detail.location.userId).toBe(driverRec.id);
      expect(detail.lastSeen.by.name).toBe(`Ada Assigner${stamp}`);
      expect(detail.history.some((e: { kind: string; movement?: { id: string } }) => e.kind === "moved" && e.movement?.id === detail.lastSeen.movement.id)).toBe(true);
      await expectNoAxeViolations(page, "the pack page for its holder");
      await shot("packs-driver-pack-page");
      // another pack of the lot is not the driver's to see
      const other = serials.find((s) => !chosen.includes(s))!;
      expect((await page.request.get(`/api/packs/${other}`)).status()).toBe(404);
    });

    await noSidewaysScroll(page, ["/", "/packs", `/packs/${chosen[1]}`]);
  } finally {
    await setMode("off");
    await mode.dispose();
  }
});

test("required mode: set on the System page, an assignment naming too few packs is refused by the server and changes nothing; the right serials work", async ({
  page,
  pb,
  shot,
  unique,
}) => {
  test.slow();
  const stamp = Date.now().toString(36).toUpperCase();
  const master = { email: unique("packs-required"), password: "master-secret-1", firstName: "Rae", lastName: `Required${stamp}` };
  const driver = { email: unique("packs-req-driver"), password: "driver-secret-1", firstName: "Dev", lastName: `Counted${stamp}` };
  await seedUser(pb, { ...master, role: "master_admin" });
  const driverRec = await seedUser(pb, driver);
  const driverName = `${driver.firstName} ${driver.lastName}`;
  await signIn(page, master.email, master.password);
  const setMode = (value: "off" | "optional" | "required") => setPackTracking(page.request, value);
  const lot = `E2E-REQ-${test.info().project.name.toUpperCase()}-${stamp}`;
  const minted = await page.request.post("/api/admin/packs/mint", {
    data: { count: 3, model: "Nova 48V 15Ah", lot },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
  expect(minted.status(), await minted.text()).toBe(200);
  const serials = ((await minted.json()).packs as { serial: string }[]).map((p) => p.serial);
  const inventory = async () => (await (await page.request.get("/api/inventory")).json()) as { ready: number; settings: Record<string, string> };
  const lotPlaces = async () =>
    ((await (await page.request.get(`/api/packs?lot=${lot}`)).json()) as PackList).packs.map((p) => `${p.serial}@${p.location?.key ?? ""}`).sort();

  try {
    // the form is filled while the mode is still off: its check knows nothing of packs, so the
    // server is the one to refuse once the mode is required
    await page.goto("/admin-driver-swaps");
    const card = page.getByRole("region", { name: "Manual Battery Assignment" });
    const fill = async () => {
      await card.getByRole("combobox", { name: "Driver" }).click();
      await page.getByRole("option", { name: new RegExp(`^${driverName}`) }).click();
      await card.getByLabel("Quantity").fill("3");
      await card.getByRole("combobox", { name: "Assignment Type" }).click();
      await page.getByRole("option", { name: "Home Charger" }).click();
    };
    await fill();
    await card.getByRole("button", { name: "Assign Batteries" }).click();
    const confirm = page.getByRole("dialog", { name: "Confirm Battery Assignment" });
    await expect(confirm).toBeVisible();

    await test.step("the master admin sets Pack tracking to Required on the System page", async () => {
      const system = await page.context().newPage();
      await system.goto("/admin-system");
      const packCard = system.getByRole("region", { name: "Pack tracking" });
      await packCard.getByRole("combobox", { name: "Tracking mode" }).click();
      await system.getByRole("option", { name: /^Required/ }).click();
      await packCard.getByRole("button", { name: "Save pack settings" }).click();
      await expect(toast(system).getByText("Settings saved successfully!")).toBeVisible();
      await expect.poll(async () => (await inventory()).settings.pack_tracking).toBe("required");
      await system.close();
    });

    await test.step("the assignment naming no pack for 3 batteries: the server's pack_count message, nothing changed", async () => {
      const before = { ready: (await inventory()).ready, packs: await lotPlaces() };
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/assignments" && r.request().method() === "POST");
      await confirm.getByRole("button", { name: "Confirm" }).click();
      const res = await answered;
      expect(res.status()).toBe(400);
      const body = await res.json();
      expect(body.code, JSON.stringify(body)).toBe("pack_count");
      // a refusal of the count closes the dialog on the form; the message stands under the packs list
      await expect(confirm).toBeHidden();
      await expect(card.getByRole("alert").filter({ hasText: "Name exactly 3 packs for 3 batteries (0 named)" })).toBeVisible();
      await expectNoAxeViolations(page, "the refused assignment");
      await shot("packs-required-refused");
      expect((await inventory()).ready).toBe(before.ready);
      expect(await lotPlaces()).toEqual(before.packs);
      const held = ((await (await page.request.get(`/api/packs?lot=${lot}&location=field`)).json()) as PackList).total;
      expect(held).toBe(0);
    });

    await test.step("naming the 3 packs: the count follows the packs, assigned, the packs are with the driver", async () => {
      // the form follows the stored mode now: the quantity is the number of packs named
      await page.reload();
      await card.getByRole("combobox", { name: "Driver" }).click();
      await page.getByRole("option", { name: new RegExp(`^${driverName}`) }).click();
      await card.getByRole("combobox", { name: "Assignment Type" }).click();
      await page.getByRole("option", { name: "Home Charger" }).click();
      const packs = card.getByRole("group", { name: "Packs" });
      for (const code of serials) {
        await packs.getByLabel("Type a serial").fill(code);
        await packs.getByLabel("Type a serial").press("Enter");
      }
      await expect(packs.getByRole("list", { name: "Packs scanned" }).getByRole("listitem")).toHaveCount(3);
      await expect(card.getByLabel("Quantity")).toHaveValue("3");
      await card.getByRole("button", { name: "Assign Batteries" }).click();
      await expect(confirm.getByText(serials.join(", "))).toBeVisible();
      await confirm.getByRole("button", { name: "Confirm" }).click();
      await expect(toast(page).getByText("Batteries assigned successfully")).toBeVisible();
      await expect
        .poll(async () => {
          const list: PackList = await (await page.request.get(`/api/packs?lot=${lot}&location=field`)).json();
          return list.packs.map((p) => `${p.serial}@${p.location?.userId}`).sort();
        })
        .toEqual([...serials].sort().map((s) => `${s}@${driverRec.id}`));
    });
  } finally {
    // back to off: the other specs on this server count batteries only
    await setMode("off");
  }
});
