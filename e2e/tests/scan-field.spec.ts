// Every battery-moving screen scans (issue 36 item 2) on a throw-away server of its own (pack
// tracking is switched on there, so no other spec's counts-only screens change):
// - a driver names 3 packs in the pickup form and records it offline (the outbox item carries
//   them); back online it is recorded once with those 3 packs, the API and the pack pages
//   showing the driver as holder. Typed (the fallback), then with the fake camera streaming
//   the app's own labels (the native detector where Chromium has one, and the polyfill forced);
// - an admin starts a charging session with 2 scanned packs;
// - a refused pack (an unknown serial) shows its reason on its row, the rest of the list stays;
//   removed, the pickup is sent with the others;
// - the scanner tells the truth at the moment of the scan (issue 42 item 6, phone): a
//   quarantined pack in front of the fake camera is refused in the scanner itself (red, the
//   server's reason), online and offline (judged by the out-of-use list kept offline), named in
//   the Confirm dialog and never sent; 2 good packs scanned set the quantity to 2; a pack in a
//   queued action says so. A recalled pack typed at a pickup and at a charger start is red
//   with its reason, the rest of the form kept, and not sent.
// Each screen is checked by axe and at 360 px.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext, Browser, BrowserContext, Page, TestInfo } from "@playwright/test";
import { expectNoAxeViolations } from "../a11y";
import { PHONE } from "../browsers";
import { appLabels, cameraDir, cameraVideo, launchCamera, removeCameraDir } from "../camera";
import { BINARY } from "../env";
import { workerReady } from "../field";
import { expect, test, toast } from "../fixtures";

const MASTER = { email: "scan-master@example.com", password: "master-secret-1", first: "Mia", last: "Master" };
const DRIVER = { email: "scan-driver@example.com", password: "driver-secret-1", first: "Sam", last: "Scanner" };

type Pack = { serial: string; location: { kind: string; userId?: string; label: string } | null };
type Movement = { id: string; type: string; quantity: number };

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

let server: ChildProcess | undefined;
let dir = "";
let baseURL = "";
let driverId = "";
let master: APIRequestContext;
let serials: string[] = [];

const key = () => ({ "Idempotency-Key": crypto.randomUUID() });

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.beforeAll(async ({ playwright }) => {
  dir = mkdtempSync(path.join(os.tmpdir(), "swapbay-scan-"));
  for (const [u, role] of [
    [MASTER, "master_admin"],
    [DRIVER, "driver"],
  ] as const) {
    const out = execFileSync(BINARY, ["user", "create", `--email=${u.email}`, `--password=${u.password}`, `--role=${role}`, `--first=${u.first}`, `--last=${u.last}`, `--dir=${dir}`], {
      encoding: "utf8",
    });
    if (role === "driver") driverId = (out.match(/[a-z0-9]{15}/) ?? [""])[0]!;
  }
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  server = spawn(BINARY, ["serve", `--http=127.0.0.1:${port}`, `--dir=${dir}`], { stdio: "ignore" });
  await expect.poll(async () => (await fetch(`${baseURL}/api/health`).catch(() => null))?.status, { timeout: 30_000 }).toBe(200);

  master = await playwright.request.newContext({ baseURL });
  expect((await master.post("/api/login", { data: { email: MASTER.email, password: MASTER.password } })).status()).toBe(200);
  const mode = await master.post("/api/admin/settings", { data: { settings: [{ key: "pack_tracking", value: "optional" }] }, headers: key() });
  expect(mode.status(), await mode.text()).toBe(200);
  const mint = await master.post("/api/admin/packs/mint", {
    data: { count: 20, model: "Nova 48V 15Ah", chemistry: "NMC", nominalWh: 720, manufacturer: "Voltcell", lot: "E2E-SCAN", manufactured: "2026-03" },
    headers: key(),
  });
  expect(mint.status(), await mint.text()).toBe(200);
  serials = ((await mint.json()) as { packs: { serial: string }[] }).packs.map((p) => p.serial);
  // batteries waiting to charge: the master admin picks up 3 and drops them off dead
  expect((await master.post("/api/driver/pickup", { data: { quantity: 3, notes: "Y" }, headers: key() })).status()).toBe(200);
  expect((await master.post("/api/driver/dropoff-batteries", { data: { goodBatteries: 0, deadBatteries: 3, notes: "for the chargers" }, headers: key() })).status()).toBe(200);
});

test.afterAll(async () => {
  await master?.dispose();
  server?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

/** signedIn opens a phone context of browser on the throw-away server, signed in as who. */
async function signedIn(browser: Browser, testInfo: TestInfo, who: { email: string; password: string }, opts: { worker?: boolean } = {}) {
  const context = await browser.newContext({
    ...testInfo.project.use,
    ...PHONE,
    baseURL,
    serviceWorkers: opts.worker ? "allow" : "block",
    permissions: ["camera"],
  });
  expect((await context.request.post("/api/login", { data: { email: who.email, password: who.password } })).status()).toBe(200);
  const page = await context.newPage();
  return { context, page };
}

async function driverHome(page: Page, opts: { worker?: boolean } = {}) {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Driver Home" })).toBeVisible({ timeout: 30_000 });
  if (opts.worker) await workerReady(page);
  const form = page.getByRole("form", { name: "Battery Pickup" });
  await expect(form.getByRole("group", { name: "Packs" })).toBeVisible(); // the mode reached the phone
  return form;
}

/** typeSerials adds serials to the pickup's Packs list by the typed fallback. */
async function typeSerials(form: ReturnType<Page["getByRole"]>, list: string, codes: string[]) {
  const group = form.getByRole("group", { name: list });
  for (const code of codes) {
    await group.getByLabel("Type a serial").fill(code);
    await group.getByLabel("Type a serial").press("Enter");
  }
}

/** confirmPickup fills the answer, sends the pickup form and confirms. */
async function confirmPickup(page: Page, form: ReturnType<Page["getByRole"]>, quantity: number) {
  await form.getByLabel("Quantity").fill(String(quantity));
  await form.getByLabel("Did you plug in dead batteries? (Required)").fill("Y");
  await form.getByRole("button", { name: "Record Pickup" }).press("Enter");
  const dialog = page.getByRole("dialog", { name: "Confirm Pickup" });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function pickups(ctx: APIRequestContext): Promise<Movement[]> {
  const res = await ctx.get("/api/driver/recent-movements");
  expect(res.status()).toBe(200);
  return ((await res.json()) as Movement[]).filter((m) => m.type === "pickup");
}

async function packOf(ctx: APIRequestContext, serial: string): Promise<Pack> {
  const res = await ctx.get(`/api/packs/${serial}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Pack;
}

/** offlinePickup: with the phone offline the 3 packs' pickup is queued, carrying them; online it is recorded once with them. */
async function offlinePickup(page: Page, context: BrowserContext, form: ReturnType<Page["getByRole"]>, chosen: string[], name: string, shot: (n: string, p?: Page) => Promise<void>) {
  const before = await pickups(context.request);
  const dialog = await confirmPickup(page, form, 3);
  await expect(dialog.getByText(chosen.join(", "))).toBeVisible();
  await dialog.getByRole("button", { name: "Confirm" }).press("Enter");
  await expect(toast(page).getByText("Saved on this phone")).toBeVisible();
  await expect(page.getByTestId("outbox-status")).toHaveText("Offline · 1 action waiting");
  // the list is cleared once the action is queued; the queued item names its packs
  await expect(form.getByRole("list", { name: "Packs scanned" }).getByRole("listitem")).toHaveCount(0);
  const item = await page.evaluate(
    () =>
      new Promise<unknown>((resolve) => {
        const req = indexedDB.open("swapbay-outbox");
        req.onsuccess = () => {
          const db = req.result;
          const store = db.transaction(db.objectStoreNames[0]!).objectStore(db.objectStoreNames[0]!);
          const all = store.getAll();
          all.onsuccess = () => resolve(all.result);
        };
      }),
  );
  expect(JSON.stringify(item)).toContain(JSON.stringify(chosen));
  await shot(`${name}-queued`, page);

  await context.unrouteAll({ behavior: "ignoreErrors" });
  await context.setOffline(false);
  await expect(page.getByTestId("outbox-status")).toHaveText("All sent", { timeout: 30_000 });
  const after = (await pickups(context.request)).filter((m) => !before.some((b) => b.id === m.id));
  expect(after.map((m) => Math.abs(m.quantity))).toEqual([3]); // recorded once
  for (const s of chosen) {
    const p = await packOf(master, s);
    expect(p.location?.userId, s).toBe(driverId);
  }
  // the pack page shows the driver as holder
  await page.goto(`/packs/${chosen[0]}`);
  await expect(page.getByRole("heading", { name: chosen[0]!, level: 1 })).toBeVisible();
  // Location: the driver's pickup holding
  await expect(page.getByRole("definition").filter({ hasText: `${DRIVER.first} ${DRIVER.last} (pickup)` }).first()).toBeVisible();
  await shot(`${name}-pack-page`, page);
}

async function goOffline(context: BrowserContext) {
  await context.setOffline(true);
  await context.route("**/api/**", (route) => route.abort("internetdisconnected"));
}

async function noSidewaysScroll(page: Page, what: string) {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 780 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${what} at 360 px`).toBeLessThanOrEqual(0);
  if (before) await page.setViewportSize(before);
}

test("optional mode: a driver types 3 serials and records a pickup offline; back online it is recorded once with those 3", async ({ browser, shot }, testInfo) => {
  const { context, page } = await signedIn(browser, testInfo, DRIVER, { worker: true });
  try {
    const form = await driverHome(page, { worker: true });
    const chosen = serials.slice(0, 3);
    await goOffline(context);
    // as a driver reads them off the labels: any case, a label's URL too
    await typeSerials(form, "Packs", [chosen[0]!.toLowerCase(), `${baseURL}/p/${chosen[1]}`, chosen[2]!]);
    const listed = form.getByRole("list", { name: "Packs scanned" }).getByRole("listitem");
    await expect(listed).toHaveCount(3);
    await expect(form.getByText("3 of 3 scanned").or(form.getByText(/3 scanned/))).toBeVisible();
    await expectNoAxeViolations(page, "the pickup form with packs listed");
    await noSidewaysScroll(page, "the pickup form with packs listed");
    await shot("scan-pickup-typed", page);
    await offlinePickup(page, context, form, chosen, "scan-pickup-typed", shot);
  } finally {
    await context.close();
  }
});

test("a refused pack (an unknown serial) shows its reason on its row; the rest stays; removed, the pickup is sent", async ({ browser, shot }, testInfo) => {
  const { context, page } = await signedIn(browser, testInfo, DRIVER);
  try {
    const form = await driverHome(page);
    const known = serials.slice(3, 5);
    const unknown = "NOPE-424242";
    await typeSerials(form, "Packs", [known[0]!, unknown, known[1]!]);
    const dialog = await confirmPickup(page, form, 3);
    await dialog.getByRole("button", { name: "Confirm" }).press("Enter");
    await expect(dialog).toBeHidden();
    const rows = form.getByRole("list", { name: "Packs scanned" }).getByRole("listitem");
    await expect(rows).toHaveCount(3);
    await expect(rows.filter({ hasText: unknown })).toContainText(`Unknown pack: ${unknown}`);
    for (const s of known) await expect(rows.filter({ hasText: s })).not.toContainText("Unknown pack");
    await expectNoAxeViolations(page, "the pickup form with a refused pack");
    await shot("scan-pickup-refused", page);

    await form.getByRole("button", { name: `Remove ${unknown}` }).click();
    await expect(rows).toHaveCount(2);
    const again = await confirmPickup(page, form, 2);
    await again.getByRole("button", { name: "Confirm" }).press("Enter");
    await expect(toast(page).getByText("Battery pickup recorded successfully")).toBeVisible();
    for (const s of known) expect((await packOf(master, s)).location?.userId, s).toBe(driverId);
  } finally {
    await context.close();
  }
});

test("a queued pickup refused at send names the pack in the queue; Edit & resend removes it and the rest is recorded", async ({ browser, shot }, testInfo) => {
  const { context, page } = await signedIn(browser, testInfo, DRIVER, { worker: true });
  try {
    const form = await driverHome(page, { worker: true });
    const known = serials[13]!; // a pack no other test names
    const unknown = "NOPE-515151";
    const before = await pickups(context.request);
    await goOffline(context);
    await typeSerials(form, "Packs", [known, unknown]);
    const dialog = await confirmPickup(page, form, 2);
    await dialog.getByRole("button", { name: "Confirm" }).press("Enter");
    // the form has handed it to the queue (until then, a network back at once lets the form
    // take the refusal itself, as it would for a driver who has not yet seen "Saved")
    await expect(toast(page).getByText("Saved on this phone")).toBeVisible();
    await expect(page.getByTestId("outbox-status")).toHaveText("Offline · 1 action waiting");
    await context.unrouteAll({ behavior: "ignoreErrors" });
    await context.setOffline(false);
    await expect(page.getByTestId("outbox-status")).toHaveText("1 refused", { timeout: 30_000 });
    await page.getByRole("button", { name: /Show$/ }).click();
    const item = page.getByRole("listitem", { name: /^Pickup · 2 batteries · 2 packs, refused$/ });
    await expect(item.getByText(`Unknown pack: ${unknown}`).first()).toBeVisible();
    await item.getByRole("button", { name: "Edit & resend" }).click();
    const listed = item.getByRole("list", { name: "Packs" });
    await expect(listed.getByRole("listitem").filter({ hasText: unknown })).toContainText(`Unknown pack: ${unknown}`);
    await expectNoAxeViolations(page, "the queue's Edit & resend with its packs");
    await shot("scan-queue-refused", page);
    await listed.getByRole("button", { name: `Remove ${unknown}` }).click();
    await item.getByLabel("Quantity").fill("1");
    await item.getByRole("button", { name: "Resend" }).click();
    await expect(page.getByTestId("outbox-status")).toHaveText("All sent", { timeout: 30_000 });
    const after = (await pickups(context.request)).filter((m) => !before.some((b) => b.id === m.id));
    expect(after.map((m) => Math.abs(m.quantity))).toEqual([1]);
    expect((await packOf(master, known)).location?.userId).toBe(driverId);
  } finally {
    await context.close();
  }
});

test("an admin starts a charging session with 2 scanned packs", async ({ browser, shot }, testInfo) => {
  const { context, page } = await signedIn(browser, testInfo, MASTER);
  try {
    // two packs in the bay's waiting area: dropped off dead by the master admin, by name
    const chosen = serials.slice(5, 7);
    const drop = await master.post("/api/driver/pickup", { data: { quantity: 2, notes: "Y", packs: chosen }, headers: key() });
    expect(drop.status(), await drop.text()).toBe(200);
    const dead = await master.post("/api/driver/dropoff-batteries", { data: { goodBatteries: 0, deadBatteries: 2, deadPacks: chosen, notes: "to charge" }, headers: key() });
    expect(dead.status(), await dead.text()).toBe(200);

    await page.goto("/admin-charging");
    const card = page.getByRole("region", { name: "Start Charging Session" });
    await expect(card.getByRole("group", { name: "Packs" })).toBeVisible({ timeout: 30_000 });
    await card.getByRole("combobox", { name: "Charger Type" }).click();
    await page.getByRole("option", { name: "4A" }).click();
    await card.getByLabel("Number of Batteries").fill("2");
    await typeSerials(card, "Packs", chosen);
    await expect(card.getByRole("list", { name: "Packs scanned" }).getByRole("listitem")).toHaveCount(2);
    await expectNoAxeViolations(page, "the charging form with packs listed");
    await noSidewaysScroll(page, "the charging form with packs listed");
    await shot("scan-charging-start", page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot("scan-charging-start-wide", page);
    await page.setViewportSize(PHONE.viewport);
    await card.getByRole("button", { name: "Start Charging" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm Charging Session" });
    await expect(dialog.getByText(chosen.join(", "))).toBeVisible();
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await expect(toast(page).getByText(/Charging session started/)).toBeVisible();
    for (const s of chosen) expect((await packOf(master, s)).location?.kind, s).toBe("session");
    await expect(card.getByRole("list", { name: "Packs scanned" }).getByRole("listitem")).toHaveCount(0);
  } finally {
    await context.close();
  }
});

for (const polyfill of [false, true]) {
  test(`the fake camera${polyfill ? " (polyfill forced)" : ""}: a driver scans 3 labels and records the pickup offline`, async ({ shot }, testInfo) => {
    const cam = cameraDir();
    const chosen = serials.slice(polyfill ? 10 : 7, polyfill ? 13 : 10);
    const labels = await appLabels(master, chosen, cam);
    const browser = await launchCamera(cameraVideo([labels[0]!, labels[1]!, labels[2]!], cam));
    try {
      const { context, page } = await signedIn(browser, testInfo, DRIVER, { worker: true });
      // no request leaves the site, the decoder's wasm included
      const foreign: string[] = [];
      context.on("request", (r) => {
        const u = new URL(r.url());
        if ((u.protocol === "http:" || u.protocol === "https:") && u.origin !== baseURL) foreign.push(r.url());
      });
      if (polyfill) await context.addInitScript(() => localStorage.setItem("swapbay.scan.forcePolyfill", "1"));
      const form = await driverHome(page, { worker: true });
      await goOffline(context);
      await form.getByRole("group", { name: "Packs" }).getByRole("button", { name: "Scan", exact: true }).click();
      const scanner = page.getByRole("dialog", { name: "Scan packs" });
      await expect(scanner).toBeVisible();
      await expect(scanner.getByRole("list", { name: "Packs scanned" }).getByRole("listitem")).toHaveCount(3, { timeout: 60_000 });
      await shot(polyfill ? "scan-camera-polyfill" : "scan-camera", page);
      await scanner.getByRole("button", { name: "Done" }).click();
      await expect(form.getByRole("list", { name: "Packs scanned" }).getByRole("listitem")).toHaveCount(3);
      await offlinePickup(page, context, form, chosen, polyfill ? "scan-camera-polyfill" : "scan-camera", shot);
      expect(foreign).toEqual([]);
    } finally {
      await browser.close();
      removeCameraDir(cam);
    }
  });
}

/** stateOf sets serial's state as the master admin. */
async function setState(serial: string, state: string) {
  const res = await master.put(`/api/admin/packs/${serial}/state`, { data: { state, reason: "e2e" }, headers: key() });
  expect(res.status(), await res.text()).toBe(200);
}

/** outboxItems reads the phone's queued actions. */
function outboxItems(page: Page): Promise<unknown> {
  return page.evaluate(
    () =>
      new Promise<unknown>((resolve) => {
        const req = indexedDB.open("swapbay-outbox");
        req.onsuccess = () => {
          const db = req.result;
          const all = db.transaction(db.objectStoreNames[0]!).objectStore(db.objectStoreNames[0]!).getAll();
          all.onsuccess = () => resolve(all.result);
        };
      }),
  );
}

test("@phone the fake camera: a quarantined pack is refused in the scanner itself, online and offline, and never sent; 2 packs scanned set the quantity to 2", async ({ shot }, testInfo) => {
  const cam = cameraDir();
  const [good1, good2, bad] = [serials[14]!, serials[15]!, serials[16]!];
  await setState(bad, "quarantined");
  const why = `Pack ${bad} is quarantined and cannot be handed out`;
  const labels = await appLabels(master, [good1, good2, bad], cam);
  const browser = await launchCamera(cameraVideo([labels[0]!, labels[1]!, labels[2]!], cam));
  try {
    const { context, page } = await signedIn(browser, testInfo, DRIVER, { worker: true });
    const listed = page.waitForResponse((r) => r.url().endsWith("/api/packs/out-of-use") && r.ok());
    let form = await driverHome(page, { worker: true });
    await listed;

    /** scanAll opens the pickup's scanner, waits for the 3 packs and the refusal, and closes it. */
    const scanAll = async (name: string) => {
      await form.getByRole("group", { name: "Packs" }).getByRole("button", { name: "Scan", exact: true }).click();
      const scanner = page.getByRole("dialog", { name: "Scan packs" });
      const rows = scanner.getByRole("list", { name: "Packs scanned" }).getByRole("listitem");
      await expect(rows).toHaveCount(3, { timeout: 60_000 });
      // the scanner itself says it, as the pack is in front of the camera (each time it comes back)
      await expect(scanner.getByRole("status")).toContainText(`Refused: ${why}`, { timeout: 20_000 });
      await expect(rows.filter({ hasText: bad })).toContainText(why);
      await shot(name, page);
      await scanner.getByRole("button", { name: "Done" }).click();
      return scanner;
    };

    // online: the 2 good packs set the quantity; the Confirm dialog names the refused one; it is not sent
    const before = await pickups(context.request);
    await scanAll("scan-refused-online");
    await expect(form.getByLabel("Quantity")).toHaveValue("2");
    await expect(form.getByRole("list", { name: "Packs scanned" }).getByRole("listitem").filter({ hasText: bad })).toContainText(why);
    await form.getByLabel("Did you plug in dead batteries? (Required)").fill("Y");
    await form.getByRole("button", { name: "Record Pickup" }).press("Enter");
    let dialog = page.getByRole("dialog", { name: "Confirm Pickup" });
    await expect(dialog.getByText(`${good1}, ${good2}`)).toBeVisible();
    await expect(dialog.getByRole("alert")).toContainText(why);
    await shot("scan-refused-confirm", page);
    await dialog.getByRole("button", { name: "Confirm" }).press("Enter");
    await expect(toast(page).getByText("Battery pickup recorded successfully")).toBeVisible();
    const after = (await pickups(context.request)).filter((m) => !before.some((b) => b.id === m.id));
    expect(after.map((m) => Math.abs(m.quantity))).toEqual([2]);
    for (const s of [good1, good2]) expect((await packOf(master, s)).location?.userId, s).toBe(driverId);
    expect((await packOf(master, bad)).location?.userId).not.toBe(driverId);

    // offline, from a reload: judged by the list kept with the app's offline data
    await goOffline(context);
    await page.reload();
    form = await driverHome(page);
    await scanAll("scan-refused-offline");
    await expect(form.getByLabel("Quantity")).toHaveValue("2");
    await form.getByLabel("Did you plug in dead batteries? (Required)").fill("Y");
    await form.getByRole("button", { name: "Record Pickup" }).press("Enter");
    dialog = page.getByRole("dialog", { name: "Confirm Pickup" });
    await expect(dialog.getByRole("alert")).toContainText(why);
    await dialog.getByRole("button", { name: "Confirm" }).press("Enter");
    await expect(toast(page).getByText("Saved on this phone")).toBeVisible();
    const queued = JSON.stringify(await outboxItems(page));
    expect(queued).toContain(JSON.stringify([good1, good2]));
    expect(queued).not.toContain(bad);
    // a pack already in a queued action says so
    await form.getByRole("group", { name: "Packs" }).getByLabel("Type a serial").fill(good1);
    await form.getByRole("group", { name: "Packs" }).getByLabel("Type a serial").press("Enter");
    await expect(form.getByRole("list", { name: "Packs scanned" }).getByRole("listitem").filter({ hasText: good1 })).toContainText(
      "Already in a queued action: Pickup · 2 batteries · 2 packs",
    );
  } finally {
    await browser.close();
    removeCameraDir(cam);
  }
});

test("@phone a recalled pack typed at a pickup and at a charger start is red with its reason, the rest of the form kept, and not sent", async ({ browser, shot }, testInfo) => {
  const mint = await master.post("/api/admin/packs/mint", {
    data: { count: 2, model: "Nova 48V 15Ah", chemistry: "NMC", nominalWh: 720, manufacturer: "Voltcell", lot: "E2E-RECALL", manufactured: "2026-03" },
    headers: key(),
  });
  expect(mint.status(), await mint.text()).toBe(200);
  const [r1, r2] = ((await mint.json()) as { packs: { serial: string }[] }).packs.map((p) => p.serial);
  const recall = await master.post("/api/admin/packs/recall", { data: { by: "lot", value: "E2E-RECALL", reason: "Cells overheat" }, headers: key() });
  expect(recall.status(), await recall.text()).toBe(200);
  const why = (s: string) => `Pack ${s} is quarantined and cannot be handed out`;
  const good = serials[17]!;

  const driver = await signedIn(browser, testInfo, DRIVER);
  try {
    const { page } = driver;
    const form = await driverHome(page);
    await form.getByLabel("Did you plug in dead batteries? (Required)").fill("N");
    await typeSerials(form, "Packs", [good, r1!]);
    const rows = form.getByRole("list", { name: "Packs scanned" }).getByRole("listitem");
    await expect(rows.filter({ hasText: r1! })).toContainText(why(r1!));
    await expect(form.getByLabel("Quantity")).toHaveValue("1");
    await expect(form.getByLabel("Did you plug in dead batteries? (Required)")).toHaveValue("N"); // the rest of the form kept
    await shot("scan-recalled-pickup", page);
    await form.getByRole("button", { name: "Record Pickup" }).press("Enter");
    const dialog = page.getByRole("dialog", { name: "Confirm Pickup" });
    await expect(dialog.getByRole("alert")).toContainText(why(r1!));
    await dialog.getByRole("button", { name: "Confirm" }).press("Enter");
    await expect(toast(page).getByText("Battery pickup recorded successfully")).toBeVisible();
    expect((await packOf(master, good)).location?.userId).toBe(driverId);
    expect((await packOf(master, r1!)).location?.userId).not.toBe(driverId);
  } finally {
    await driver.context.close();
  }

  const admin = await signedIn(browser, testInfo, MASTER);
  try {
    const { page } = admin;
    const waiting = serials[18]!;
    await page.goto("/admin-charging");
    const card = page.getByRole("region", { name: "Start Charging Session" });
    await expect(card.getByRole("group", { name: "Packs" })).toBeVisible({ timeout: 30_000 });
    await card.getByRole("combobox", { name: "Charger Type" }).click();
    await page.getByRole("option", { name: "4A" }).click();
    await typeSerials(card, "Packs", [waiting, r2!]);
    const rows = card.getByRole("list", { name: "Packs scanned" }).getByRole("listitem");
    await expect(rows.filter({ hasText: r2! })).toContainText(why(r2!));
    await expect(card.getByLabel("Number of Batteries")).toHaveValue("1");
    await expect(card.getByRole("combobox", { name: "Charger Type" })).toContainText("4A"); // the rest of the form kept
    await shot("scan-recalled-charging", page);
    await card.getByRole("button", { name: "Start Charging" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm Charging Session" });
    await expect(dialog.getByRole("alert")).toContainText(why(r2!));
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await expect(toast(page).getByText(/Charging session started/)).toBeVisible();
    expect((await packOf(master, waiting)).location?.kind).toBe("session");
    expect((await packOf(master, r2!)).location?.kind).not.toBe("session");
  } finally {
    await admin.context.close();
  }
});
