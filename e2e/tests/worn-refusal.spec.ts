// A worn pack is kept off the road (issue 46, DESIGN.md §16), on a throw-away server of its own
// (pack tracking optional, the worn mode refuse: no other spec's screens change):
// - a driver types a worn pack into the pickup form: the scanner refuses it at the moment of
//   the scan, red on its row with the server's reason (GET /api/packs/out-of-use lists worn
//   packs in refuse mode), and the Confirm dialog names it; the pickup is sent without it;
// - a pack that became worn after the phone read that list is refused by the server on submit
//   (409 pack_worn): its row turns red with the same reason and nothing is recorded.
// A pack is made worn as it would be in the bay: a BMS reading of 62% state of health is
// imported (POST /api/admin/packs/readings), under the model's default 80% threshold.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext, Browser, Page, TestInfo } from "@playwright/test";
import { expectNoAxeViolations } from "../a11y";
import { PHONE } from "../browsers";
import { BINARY } from "../env";
import { expect, test, toast } from "../fixtures";

const MASTER = { email: "worn-master@example.com", password: "master-secret-1", first: "Mia", last: "Master" };
const DRIVER = { email: "worn-driver@example.com", password: "driver-secret-1", first: "Wendy", last: "Worn" };
const WHY = "State of health 62% is under the model's 80%";

type Pack = { serial: string; worn: boolean; location: { kind: string; userId?: string; label: string } | null };

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
const refusal = (serial: string) => `Pack ${serial} is worn and cannot be handed out: ${WHY}`;

/** importReading imports a BMS reading of soh % state of health for serial, a minute old. */
async function importReading(serial: string, soh: number) {
  const at = new Date(Date.now() - 60_000).toISOString();
  const imported = await master.post("/api/admin/packs/readings", { data: { csv: `serial,time,source,soh\n${serial},${at},bms,${soh}\n` }, headers: key() });
  expect(imported.status(), await imported.text()).toBe(200);
}

/** markWorn imports a BMS reading of 62% state of health for serial: the derivation makes it worn. */
async function markWorn(serial: string) {
  await importReading(serial, 62);
  const res = await master.get(`/api/packs?worn=1&q=${serial}`);
  expect(res.status(), await res.text()).toBe(200);
  const worn = ((await res.json()) as { packs: Pack[] }).packs.map((p) => p.serial);
  expect(worn, `${serial} marked worn`).toContain(serial);
}

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.beforeAll(async ({ playwright }) => {
  dir = mkdtempSync(path.join(os.tmpdir(), "swapbay-worn-"));
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
  const modes = await master.post("/api/admin/settings", {
    data: {
      settings: [
        { key: "pack_tracking", value: "optional" },
        { key: "pack_worn_mode", value: "refuse" },
      ],
    },
    headers: key(),
  });
  expect(modes.status(), await modes.text()).toBe(200);
  const mint = await master.post("/api/admin/packs/mint", {
    data: { count: 6, model: "Nova 48V 15Ah", chemistry: "NMC", nominalWh: 720, manufacturer: "Voltcell", lot: "E2E-WORN", manufactured: "2024-03" },
    headers: key(),
  });
  expect(mint.status(), await mint.text()).toBe(200);
  serials = ((await mint.json()) as { packs: { serial: string }[] }).packs.map((p) => p.serial);
  await markWorn(serials[0]!);
});

test.afterAll(async () => {
  await master?.dispose();
  server?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

/** signedIn opens a phone context of browser on the throw-away server, signed in as who. */
async function signedIn(browser: Browser, testInfo: TestInfo, who: { email: string; password: string }) {
  const context = await browser.newContext({ ...testInfo.project.use, ...PHONE, baseURL, serviceWorkers: "block" });
  expect((await context.request.post("/api/login", { data: { email: who.email, password: who.password } })).status()).toBe(200);
  const page = await context.newPage();
  return { context, page };
}

async function typeSerials(form: ReturnType<Page["getByRole"]>, codes: string[]) {
  const group = form.getByRole("group", { name: "Packs" });
  for (const code of codes) {
    await group.getByLabel("Type a serial").fill(code);
    await group.getByLabel("Type a serial").press("Enter");
  }
}

async function packOf(serial: string): Promise<Pack> {
  const res = await master.get(`/api/packs/${serial}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Pack;
}

async function pickupCount(ctx: APIRequestContext): Promise<number> {
  const res = await ctx.get("/api/driver/recent-movements");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { type: string }[]).filter((m) => m.type === "pickup").length;
}

/** expectRefusedRow checks serial's row is red with the server's reason. */
async function expectRefusedRow(form: ReturnType<Page["getByRole"]>, serial: string) {
  const row = form.getByRole("list", { name: "Packs scanned" }).getByRole("listitem").filter({ hasText: serial });
  const reason = row.getByText(refusal(serial));
  await expect(reason).toBeVisible();
  await expect(reason).toHaveClass(/text-destructive/);
  await expect(row).toHaveClass(/bg-destructive/);
  // red as people see it: the theme's destructive colour (oklch: a saturated hue near 27°; rgb: red over green)
  const colour = await reason.evaluate((el) => getComputedStyle(el).color);
  const [a, b, c] = colour.match(/[\d.]+/g)!.map(Number);
  const red = colour.startsWith("oklch") ? b! > 0.1 && (c! < 45 || c! > 340) : a! > b! + 40;
  expect(red, `reason colour ${colour}`).toBe(true);
}

test("@phone a driver's pickup of a worn pack in refuse mode is refused in red with its reason, at the scan and on submit", async ({ browser, shot }, testInfo) => {
  const [worn1, worn2, good] = [serials[0]!, serials[1]!, serials[2]!];
  const driver = await signedIn(browser, testInfo, DRIVER);
  try {
    const { page, context } = driver;
    const listed = page.waitForResponse((r) => r.url().endsWith("/api/packs/out-of-use") && r.status() === 200);
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Driver Home" })).toBeVisible({ timeout: 30_000 });
    const form = page.getByRole("form", { name: "Battery Pickup" });
    await expect(form.getByRole("group", { name: "Packs" })).toBeVisible(); // the mode reached the phone
    const list = (await (await listed).json()) as { packs: { serial: string; code: string; message: string }[] };
    expect(list.packs).toContainEqual({ serial: worn1, code: "pack_worn", message: refusal(worn1) });

    // worn since the phone read its list: the scanner lets it through, the server refuses it.
    // (The import announces itself and an online phone reads the list again at once, which
    // would refuse it at the scan: the phone is held to the list it read, as one that missed
    // the announcement would be.)
    const stale = JSON.stringify(list);
    await page.route("**/api/packs/out-of-use", (route) => route.fulfill({ status: 200, contentType: "application/json", body: stale }));
    await markWorn(worn2);
    const before = await pickupCount(context.request);
    await form.getByLabel("Did you plug in dead batteries? (Required)").fill("N");
    await typeSerials(form, [good, worn2]);
    await expect(form.getByLabel("Quantity")).toHaveValue("2");
    await form.getByRole("button", { name: "Record Pickup" }).press("Enter");
    let dialog = page.getByRole("dialog", { name: "Confirm Pickup" });
    await dialog.getByRole("button", { name: "Confirm" }).press("Enter");
    await expectRefusedRow(form, worn2);
    await expect(form.getByLabel("Did you plug in dead batteries? (Required)")).toHaveValue("N"); // the rest of the form kept
    expect(await pickupCount(context.request)).toBe(before); // nothing recorded
    expect((await packOf(worn2)).location?.userId).not.toBe(driverId);
    await shot("worn-refused-on-submit", page);

    // worn when the list was read: refused in the scanner itself, red with its reason
    // the next announcement (another pack's reading) brings the phone the list as it is now
    await page.unroute("**/api/packs/out-of-use");
    const caughtUp = page.waitForResponse((r) => r.url().endsWith("/api/packs/out-of-use") && r.status() === 200);
    await importReading(serials[3]!, 96);
    await caughtUp;
    await typeSerials(form, [worn1]);
    await expectRefusedRow(form, worn1);
    await expectRefusedRow(form, worn2); // the list caught up: still red, and not sent
    await expect(form.getByLabel("Quantity")).toHaveValue("1");
    await expectNoAxeViolations(page, "worn refusal");
    await shot("worn-refused-at-scan", page);

    await form.getByRole("button", { name: "Record Pickup" }).press("Enter");
    dialog = page.getByRole("dialog", { name: "Confirm Pickup" });
    await expect(dialog.getByRole("alert")).toContainText(refusal(worn1));
    await expect(dialog.getByRole("alert")).toContainText(refusal(worn2));
    await dialog.getByRole("button", { name: "Confirm" }).press("Enter");
    await expect(toast(page).getByText("Battery pickup recorded successfully")).toBeVisible();
    expect(await pickupCount(context.request)).toBe(before + 1);
    expect((await packOf(good)).location?.userId).toBe(driverId);
    for (const s of [worn1, worn2]) expect((await packOf(s)).location?.userId, s).not.toBe(driverId);
  } finally {
    await driver.context.close();
  }
});
