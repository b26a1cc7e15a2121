// The stocktake (issue 42 item 4, DESIGN.md §14), phone project: on the demo data (`swapbay
// seed-demo`, its own server on its own data dir: a stocktake rewrites the ready shelf, which the
// project's shared server must keep), an admin counts the READY shelf. Three labels are scanned
// with the fake camera (two of the shelf's packs and one pack of the waiting shelf), the rest of
// the shelf typed, except two packs left off. The scanned list survives a reload (kept in the
// browser under the admin's id); the screen shows 2 missing and 1 unexpected, passes axe, and
// Apply writes the stocktake: the toast and the screen say so, the list is forgotten, and the
// dashboard's Ready, the missing packs' pages (Lost) and the unexpected pack's page (Ready)
// agree with the server. A second count is discarded and leaves nothing behind.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { expectNoAxeViolations } from "../a11y";
import { type CameraPhone, appLabels, cameraDir, cameraPhone, cameraVideo, removeCameraDir } from "../camera";
import { BINARY, SCREENSHOTS } from "../env";
import { expect, test, toast } from "../fixtures";

/** the demo's admin (pb_app/cmd_seed.go) */
const ADMIN = { email: "admin@swapbay.local", password: "swapbay-demo" };
/** DEMO_DRIVER is one of the demo data's drivers (swapbay seed-demo). */
const DEMO_DRIVER = { email: "priya@swapbay.local", password: "swapbay-demo" };

let server: ChildProcess | undefined;
let dataDir = "";
let base = "";
let videoDir = "";
let phone: CameraPhone | undefined;
let api: APIRequestContext;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

test.beforeAll(async ({ playwright }) => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "swapbay-stocktake-"));
  execFileSync(BINARY, ["seed-demo", `--dir=${dataDir}`], { stdio: ["ignore", "ignore", "inherit"] });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(BINARY, ["serve", `--http=127.0.0.1:${port}`, `--dir=${dataDir}`], { stdio: "ignore" });
  await expect.poll(async () => fetch(`${base}/api/health`).then((r) => r.status).catch(() => 0), { timeout: 30_000 }).toBe(200);
  api = await playwright.request.newContext({ baseURL: base });
  await expect.poll(async () => (await api.post("/api/login", { data: ADMIN })).status(), { timeout: 20_000, intervals: [500, 1000, 2000] }).toBe(200);
  // the demo's waiting shelf holds what its drivers brought back dead by the hour it was seeded
  // (none early in the day): a demo driver brings one more pack back dead, so it holds one at least
  const driver = await playwright.request.newContext({ baseURL: base });
  await expect.poll(async () => (await driver.post("/api/login", { data: DEMO_DRIVER })).status(), { timeout: 20_000, intervals: [500, 1000, 2000] }).toBe(200);
  const [spare] = await serialsAt("ready");
  for (const [url, data] of [
    ["/api/driver/pickup", { quantity: 1, notes: "for the stocktake spec", packs: [spare] }],
    ["/api/driver/dropoff-batteries", { goodBatteries: 0, deadBatteries: 1, notes: "for the stocktake spec", deadPacks: [spare] }],
  ] as const) {
    const res = await driver.post(url, { data, headers: { "Idempotency-Key": crypto.randomUUID() } });
    expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  }
  await driver.dispose();
});

test.afterAll(async () => {
  await phone?.close();
  await api?.dispose();
  server?.kill("SIGTERM");
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (videoDir) removeCameraDir(videoDir);
});

/** serialsAt lists the serials the records put at location (ready, waiting), in serial order. */
async function serialsAt(location: string): Promise<string[]> {
  const res = await api.get(`/api/packs?location=${location}&perPage=500`);
  expect(res.status(), await res.text()).toBe(200);
  const list = (await res.json()) as { packs: { serial: string; location: { kind: string } | null }[] };
  return list.packs
    .filter((p) => p.location?.kind === location)
    .map((p) => p.serial)
    .sort();
}

async function stats(): Promise<{ ready: number; waiting: number }> {
  const res = await api.get("/api/state");
  return ((await res.json()) as { stats: { ready: number; waiting: number } }).stats;
}

/** typeSerials adds each serial through the typed entry (Enter adds). */
async function typeSerials(page: Page, serials: string[]) {
  const input = page.getByLabel("Type a serial");
  for (const s of serials) {
    await input.fill(s);
    await input.press("Enter");
    await expect(input).toHaveValue("");
  }
}

/** tally is the figure of one tile of "Stocktake so far". */
function tally(page: Page, name: string) {
  return page.getByRole("group", { name: "Stocktake so far" }).getByLabel(name, { exact: true });
}

test("an admin stocktakes the ready shelf: 2 missing, 1 unexpected, applied; the dashboard and pack pages agree", async () => {
  test.setTimeout(240_000);
  const ready = await serialsAt("ready");
  const waiting = await serialsAt("waiting");
  expect(ready.length).toBeGreaterThan(20);
  expect(waiting.length).toBeGreaterThan(0);
  const missing = ready.slice(-2);
  const unexpected = waiting[0]!;
  const counted = ready.slice(0, -2);
  const before = await stats();

  // the camera shows two of the shelf's labels and the waiting pack's
  videoDir = cameraDir();
  const labels = await appLabels(api, [counted[0]!, counted[1]!, unexpected], videoDir);
  phone = await cameraPhone(cameraVideo(labels, videoDir), { baseURL: base });
  const { page } = phone;
  await expect.poll(async () => (await page.request.post("/api/login", { data: ADMIN })).status(), { timeout: 20_000, intervals: [500, 1000, 2000] }).toBe(200);

  // the packs page leads there
  await page.goto("/packs");
  await page.getByRole("link", { name: "Stocktake" }).click();
  await expect(page.getByRole("heading", { name: "Stocktake", level: 1 })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Place" })).toHaveText("Ready shelf");

  // scanned with the camera, continuously: three labels, each listed once
  await page.getByRole("button", { name: "Scan packs" }).click();
  const scanner = page.getByRole("dialog", { name: /^Scan packs at the ready shelf/ });
  await expect(scanner).toBeVisible();
  await expect(scanner.getByText(/camera\. 3 scanned/)).toBeVisible({ timeout: 60_000 });
  await scanner.getByRole("button", { name: "Done" }).click();
  await expect(scanner).toBeHidden();

  // the rest typed; a reload half-way keeps the list
  const typed = counted.slice(2);
  const half = Math.floor(typed.length / 2);
  await typeSerials(page, typed.slice(0, half));
  await expect(page.getByText(new RegExp(`^${3 + half} scanned`))).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Stocktake", level: 1 })).toBeVisible();
  await expect(page.getByText(new RegExp(`^${3 + half} scanned`))).toBeVisible();
  await typeSerials(page, typed.slice(half));

  // live: 2 missing, 1 unexpected, the rest found
  await expect(tally(page, "Missing")).toHaveText("2");
  await expect(tally(page, "Unexpected")).toHaveText("1");
  await expect(tally(page, "Found")).toHaveText(String(counted.length));
  await expect(tally(page, "Wrong place")).toHaveText("0");
  const missingList = page.getByRole("list", { name: "Missing" });
  await expect(missingList.getByRole("listitem")).toHaveCount(2);
  for (const s of missing) await expect(missingList.getByRole("link", { name: s })).toBeVisible();
  await expect(page.getByRole("list", { name: "Unexpected" }).getByRole("listitem")).toHaveText(new RegExp(`${unexpected}.*Records: Waiting`));
  await expectNoAxeViolations(page, "the stocktake of the ready shelf, 2 missing and 1 unexpected");
  await page.screenshot({ path: path.join(SCREENSHOTS, "phone-stocktake-ready.png") });

  // applied: the server's answer, the list forgotten
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  const confirm = page.getByRole("alertdialog", { name: "Apply the stocktake of the ready shelf?" });
  await expect(confirm).toContainText(`Ready shelf will count ${counted.length + 1} (now ${before.ready}).`);
  await expect(confirm).toContainText("2 packs missing will be marked lost.");
  await expectNoAxeViolations(page, "the stocktake's confirmation");
  await confirm.getByRole("button", { name: "Apply" }).click();
  await expect(toast(page)).toContainText(`Stocktake applied: ${counted.length} found, 2 missing, 1 unexpected`);
  await expect(page.getByRole("status").filter({ hasText: "Ready shelf now counts" })).toContainText(`Ready shelf now counts ${counted.length + 1}`);
  await page.reload();
  await expect(page.getByText(/^0 scanned/)).toBeVisible();

  // the server, the dashboard and the pack pages agree
  await expect.poll(stats).toMatchObject({ ready: counted.length + 1, waiting: before.waiting - 1 });
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Battery stats" }).getByLabel("Ready", { exact: true })).toHaveText(String(counted.length + 1));
  await expect(page.getByRole("region", { name: "Battery stats" }).getByLabel("Waiting", { exact: true })).toHaveText(String(before.waiting - 1));
  for (const s of missing) {
    await page.goto(`/packs/${s}`);
    await expect(page.getByRole("heading", { name: s, level: 1 })).toBeVisible();
    // the state badge beside the heading, and the state form's current value
    await expect(page.getByText("Lost", { exact: true }).first()).toBeVisible();
    await expect(page.getByRole("combobox", { name: "State" })).toHaveText("Lost");
    await expect(page.getByRole("definition").first()).toHaveText("Unknown");
  }
  await page.goto(`/packs/${unexpected}`);
  await expect(page.getByRole("heading", { name: unexpected, level: 1 })).toBeVisible();
  await expect(page.getByRole("definition").first()).toHaveText("Ready");
  const res = await api.get(`/api/packs/${missing[0]}`);
  expect(((await res.json()) as { state: string }).state).toBe("lost");
});

test("a stocktake is kept across a reload until it is discarded", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: "block" });
  const page = await context.newPage();
  await expect.poll(async () => (await page.request.post("/api/login", { data: ADMIN })).status(), { timeout: 20_000, intervals: [500, 1000, 2000] }).toBe(200);
  // two packs of the ready shelf, counted on the waiting shelf (unexpected there): the demo's
  // waiting shelf may hold only one pack by now (how many depends on the time of day the demo
  // data was seeded, and the test above moved one away)
  const [a, b] = await serialsAt("ready");
  const before = await stats();
  await page.goto("/packs/stocktake");
  await page.getByRole("combobox", { name: "Place" }).click();
  await page.getByRole("option", { name: "Waiting (dead)" }).click();
  await typeSerials(page, [a!, `${base}/p/${b!.toLowerCase()}`]); // a label's URL reads as its serial
  await expect(page.getByText(/^2 scanned/)).toBeVisible();
  // a code that is no pack is listed apart and Apply waits for it to go
  await typeSerials(page, ["NOPE-000001"]);
  await expect(page.getByRole("list", { name: "Not packs" }).getByRole("listitem")).toHaveText(/NOPE-000001/);
  await expect(page.getByRole("button", { name: "Apply", exact: true })).toBeDisabled();

  await page.reload();
  await expect(page.getByRole("combobox", { name: "Place" })).toHaveText("Waiting (dead)");
  await expect(page.getByText(/^3 scanned/)).toBeVisible();
  await page.getByRole("button", { name: "Remove NOPE-000001" }).click();
  await expect(page.getByRole("button", { name: "Apply", exact: true })).toBeEnabled();

  await page.getByRole("button", { name: "Discard" }).click();
  await page.getByRole("alertdialog", { name: "Discard this stocktake?" }).getByRole("button", { name: "Discard" }).click();
  await expect(page.getByText(/^0 scanned/)).toBeVisible();
  await page.reload();
  await expect(page.getByText(/^0 scanned/)).toBeVisible();
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("swapbay.stocktake.")))).toEqual([]);
  expect(await stats()).toEqual(before);
  await context.close();
});
