// Packs that move between cities (issue 45 item 6), phone project, on two throw-away city servers
// of its own (Paris, prefix PAR, and Berlin, prefix BER; pack tracking optional, each bay's ready
// shelf counted by a stocktake so every pack has its place):
// - Paris's admin opens Packs → "Send to another city", names Berlin, types 2 packs into the scan
//   field as a wedge scanner would (one as its label URL), confirms "Send 2 packs to Berlin?",
//   and lands on the transfer page: the manifest as a QR code and as text with a Copy button.
//   Paris's counts shrink by 2 (nothing unaccounted) and the packs read "In transit";
// - Berlin's admin opens Packs → Transfers → "Receive from another city", pastes the manifest,
//   sees the 2 expected packs, scans each (Paris's label URL for one), and "Receive 2 packs"
//   lands on the received transfer; Berlin's counts grow by 2, its pack page shows the pack in
//   service with its history naming Paris, and Paris's pack page still says in transit;
// - Paris sends its third pack to Lisbon and deletes that send from Home's Recent Activity
//   ("Sent 1 pack to Lisbon"; the confirmation warns that Lisbon may have received it): the
//   pack is back in service, the counts as before;
// - Paris sends it to Berlin, which records a standing recall of its lot meanwhile (as head
//   office's recall does): it arrives quarantined, said in the toast and on the transfer page,
//   its battery on Berlin's quarantine shelf.
// Each new screen is checked by axe. The send and the receive are walked with the keyboard alone
// after the first page.goto (Tab to each field and button, Enter, the confirm dialog's focus); the
// new screen's heading has the focus after each answer.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext, Browser, Page, TestInfo } from "@playwright/test";
import { expectNoAxeViolations, tabTo } from "../a11y";
import { PHONE } from "../browsers";
import { BINARY } from "../env";
import { expect, test, toast } from "../fixtures";
import { expectFocusIn, settled, typeInto } from "../keyboard";

const ADMIN = { email: "transfer-master@example.com", password: "master-secret-1", first: "Tara", last: "Transfer" };

type City = { name: string; prefix: string; dir: string; baseURL: string; server?: ChildProcess; api?: APIRequestContext; serials: string[] };
type Stats = { total: number; ready: number; waiting: number; quarantined: number; unaccounted: number };

const cities: City[] = [
  { name: "Paris", prefix: "PAR", dir: "", baseURL: "", serials: [] },
  { name: "Berlin", prefix: "BER", dir: "", baseURL: "", serials: [] },
];
const [paris, berlin] = cities as [City, City];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const key = () => ({ "Idempotency-Key": crypto.randomUUID() });

async function stats(c: City): Promise<Stats> {
  const res = await c.api!.get("/api/state");
  expect(res.status(), await res.text()).toBe(200);
  const s = ((await res.json()) as { stats: Stats }).stats;
  return { ...s, unaccounted: s.unaccounted ?? 0 }; // the answer leaves a 0 out
}

async function packState(c: City, serial: string): Promise<string | null> {
  const res = await c.api!.get(`/api/packs/${serial}`);
  if (res.status() === 404) return null;
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { state: string }).state;
}

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.beforeAll(async ({ playwright }) => {
  for (const [i, c] of cities.entries()) {
    c.dir = mkdtempSync(path.join(os.tmpdir(), `swapbay-transfer-${c.prefix.toLowerCase()}-`));
    execFileSync(BINARY, ["user", "create", `--email=${ADMIN.email}`, `--password=${ADMIN.password}`, "--role=master_admin", `--first=${ADMIN.first}`, `--last=${ADMIN.last}`, `--dir=${c.dir}`], {
      encoding: "utf8",
    });
    const port = await freePort();
    c.baseURL = `http://127.0.0.1:${port}`;
    c.server = spawn(BINARY, ["serve", `--http=127.0.0.1:${port}`, `--dir=${c.dir}`], { stdio: "ignore" });
    await expect.poll(async () => (await fetch(`${c.baseURL}/api/health`).catch(() => null))?.status, { timeout: 30_000 }).toBe(200);
    c.api = await playwright.request.newContext({ baseURL: c.baseURL });
    expect((await c.api.post("/api/login", { data: { email: ADMIN.email, password: ADMIN.password } })).status()).toBe(200);
    const settings = await c.api.post("/api/admin/settings", {
      data: { settings: [{ key: "pack_tracking", value: "optional" }, { key: "pack_prefix", value: c.prefix }] },
      headers: key(),
    });
    expect(settings.status(), await settings.text()).toBe(200);
    const n = i === 0 ? 3 : 1;
    const fleet = await c.api.post("/api/admin/emergency-override", { data: { ready: n, waiting: 0, charging: 0, total: n }, headers: key() });
    expect(fleet.status(), await fleet.text()).toBe(200);
    const mint = await c.api.post("/api/admin/packs/mint", {
      data: { count: n, model: "Nova 48V 15Ah", chemistry: "NMC", nominalWh: 720, manufacturer: "Voltcell", lot: `E2E-${c.prefix}`, manufactured: "2024-03" },
      headers: key(),
    });
    expect(mint.status(), await mint.text()).toBe(200);
    c.serials = ((await mint.json()) as { packs: { serial: string }[] }).packs.map((p) => p.serial);
    // the ready shelf counted: every pack has its place
    const counted = await c.api.post("/api/admin/stocktake", { data: { place: "ready", serials: c.serials }, headers: key() });
    expect(counted.status(), await counted.text()).toBe(200);
    expect(await stats(c)).toMatchObject({ ready: n, total: n, unaccounted: 0 });
  }
});

test.afterAll(async () => {
  for (const c of cities) {
    await c.api?.dispose();
    c.server?.kill("SIGTERM");
    if (c.dir) rmSync(c.dir, { recursive: true, force: true });
  }
});

/** signedIn opens a phone context on city c, signed in as its admin. */
async function signedIn(browser: Browser, testInfo: TestInfo, c: City) {
  const context = await browser.newContext({ ...testInfo.project.use, ...PHONE, baseURL: c.baseURL, serviceWorkers: "block" });
  expect((await context.request.post("/api/login", { data: { email: ADMIN.email, password: ADMIN.password } })).status()).toBe(200);
  const page = await context.newPage();
  return { context, page };
}

let manifest = "";

/** openPacks opens /packs and waits until its list has loaded, as a person waits for the page before pressing Tab. */
async function openPacks(page: Page) {
  await page.goto("/packs");
  await expect(page.getByRole("heading", { level: 1, name: "Packs" })).toBeVisible();
  await settled(page);
}

test("Paris sends 2 packs to Berlin and gets the manifest to copy", async ({ browser }, testInfo) => {
  const { context, page } = await signedIn(browser, testInfo, paris);
  const [first, second] = [paris.serials[0]!, paris.serials[1]!];
  // keyboard only after the first page.goto: every field and button is reached with Tab, each
  // stop with a visible focus indicator, inside the viewport and under no fixed bar or toast
  await openPacks(page);
  await tabTo(page, page.getByRole("link", { name: "Send to another city" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Send to another city" })).toBeVisible();
  await typeInto(page, page.getByLabel("City", { exact: true }), "Berlin");
  await typeInto(page, page.getByLabel("This city's name on the manifest (optional)"), "Paris");
  const group = page.getByRole("group", { name: "Packs" });
  // as a wedge scanner types them: the label's URL, then a bare serial, each ended by Enter
  for (const code of [`${paris.baseURL}/p/${first}`, second]) {
    await typeInto(page, group.getByLabel("Type a serial"), code);
    await page.keyboard.press("Enter");
  }
  const scanned = page.getByRole("list", { name: "Packs scanned" });
  await expect(scanned.getByRole("listitem")).toHaveCount(2);
  await expectNoAxeViolations(page, "send to another city");
  await tabTo(page, page.getByRole("button", { name: "Send 2 packs" }));
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("alertdialog", { name: "Send 2 packs to Berlin?" });
  await expectFocusIn(dialog);
  await expectNoAxeViolations(page, "send confirm");
  await tabTo(page, dialog.getByRole("button", { name: "Send", exact: true }));
  await page.keyboard.press("Enter");
  await expect(toast(page).filter({ hasText: "Sent 2 packs to Berlin" })).toBeVisible();

  // the send's answer opened the transfer's page: the focus the Send button had is on its heading
  await expect(page.getByRole("heading", { name: "Sent 2 packs to Berlin" })).toBeFocused();
  const qr = page.getByRole("img", { name: "QR code of the manifest for Berlin" });
  await expect(qr).toBeVisible();
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await tabTo(page, page.getByRole("button", { name: "Copy" }));
  manifest = await page.getByLabel("Manifest").inputValue();
  expect(manifest).toMatch(/^SWBT1\./);
  const sentList = page.getByRole("list", { name: "Packs sent" });
  await expect(sentList.getByRole("link")).toHaveText([first, second]);
  await expect(sentList.getByRole("listitem").filter({ hasText: "In transit" })).toHaveCount(2);
  await expectNoAxeViolations(page, "transfer page");

  // Paris's counts shrink by 2, nothing unaccounted; the packs are in transit
  expect(await stats(paris)).toMatchObject({ ready: 1, total: 1, unaccounted: 0 });
  expect(await packState(paris, first)).toBe("in_transit");
  await page.goto(`/packs/${first}`);
  await expect(page.getByText("In transit").first()).toBeVisible();
  await context.close();
});

test("Berlin pastes the manifest and receives the packs by scanning them", async ({ browser }, testInfo) => {
  expect(manifest, "the manifest from the first test").not.toBe("");
  const { context, page } = await signedIn(browser, testInfo, berlin);
  const [first, second] = [paris.serials[0]!, paris.serials[1]!];
  // keyboard only after the first page.goto, as the send above
  await openPacks(page);
  await tabTo(page, page.getByRole("link", { name: "Transfers", exact: true }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Transfers" })).toBeVisible();
  await expectNoAxeViolations(page, "transfers list (empty)");
  await tabTo(page, page.getByRole("link", { name: "Receive from another city" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Receive from another city" })).toBeVisible();
  // the manifest is pasted (insertText: one input event, as a paste)
  await tabTo(page, page.getByLabel("Manifest"));
  await page.keyboard.insertText(manifest);
  await expect(page.getByText("From Paris · 2 packs")).toBeVisible();
  const expected = page.getByRole("list", { name: "Packs in this transfer" });
  await expect(expected.getByRole("listitem")).toHaveCount(2);
  // a pack of another transfer is refused at the scan
  await typeInto(page, page.getByLabel("Type a serial"), paris.serials[2]!);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Not in this transfer" })).toBeVisible();
  for (const code of [`${paris.baseURL}/p/${first}`, second]) {
    await typeInto(page, page.getByLabel("Type a serial"), code);
    await page.keyboard.press("Enter");
  }
  await expect(page.getByText("2 of 2 scanned")).toBeVisible();
  await expect(expected.getByRole("listitem").filter({ hasText: "Scanned" })).toHaveCount(2);
  await expectNoAxeViolations(page, "receive from another city");
  await tabTo(page, page.getByRole("button", { name: "Receive 2 packs" }));
  await page.keyboard.press("Enter");
  await expect(toast(page).filter({ hasText: "Received 2 packs from Paris" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Received 2 packs from Paris" })).toBeFocused();
  await expect(page.getByText("2 of 2 packs of this transfer received so far.")).toBeVisible();
  await expectNoAxeViolations(page, "received transfer");

  // Berlin's counts grow by 2; the pack is in service there with its history naming Paris
  expect(await stats(berlin)).toMatchObject({ ready: 3, total: 3, unaccounted: 0 });
  await page.goto(`/packs/${first}`);
  await expect(page.getByText("Received from another city to", { exact: false }).first()).toBeVisible();
  await expect(page.getByText(`Received from Paris (history: ${paris.baseURL}/p/${first})`)).toBeVisible();
  expect(await packState(berlin, first)).toBe("in_service");
  expect(await packState(berlin, second)).toBe("in_service");
  // in service in exactly one city
  expect(await packState(paris, first)).toBe("in_transit");

  // the list shows the receive
  await page.goto("/packs/transfers");
  await expect(page.getByRole("list", { name: "Transfers" }).getByRole("link", { name: "Received 2 packs from Paris" })).toBeVisible();
  await expectNoAxeViolations(page, "transfers list");
  await context.close();
});

test("a send deleted on the Activity page brings its pack back in service", async ({ browser }, testInfo) => {
  const third = paris.serials[2]!;
  const sent = await paris.api!.post("/api/admin/packs/transfers", { data: { toCity: "Lisbon", serials: [third] }, headers: key() });
  expect(sent.status(), await sent.text()).toBe(201);
  expect(await stats(paris)).toMatchObject({ ready: 0, total: 0, unaccounted: 0 });
  expect(await packState(paris, third)).toBe("in_transit");

  const { context, page } = await signedIn(browser, testInfo, paris);
  await page.goto("/");
  const feed = page.getByRole("list", { name: "Recent Activity" });
  await expect(feed.getByRole("button", { name: /Sent 2 packs to Berlin/ })).toBeVisible();
  await feed.getByRole("button", { name: /Sent 1 pack to Lisbon/ }).click();
  const options = page.getByRole("dialog", { name: "Movement Options" });
  await options.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm Delete" });
  // Paris cannot know whether Lisbon has received it: the confirmation says so
  await expect(confirm).toContainText("Delete a send only if its packs never left: if Lisbon has received them, they would be counted in both cities.");
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(toast(page).filter({ hasText: "Movement Deleted" })).toBeVisible();
  await expect(feed.getByRole("button", { name: /Sent 1 pack to Lisbon/ })).toHaveCount(0);

  expect(await packState(paris, third)).toBe("in_service");
  expect(await stats(paris)).toMatchObject({ ready: 1, total: 1, unaccounted: 0 });
  await context.close();
});

test("a pack sent while its lot was recalled arrives quarantined in the city that recalled it", async ({ browser, shot }, testInfo) => {
  const third = paris.serials[2]!;
  const sent = await paris.api!.post("/api/admin/packs/transfers", { data: { toCity: "Berlin", fromCity: "Paris", serials: [third] }, headers: key() });
  expect(sent.status(), await sent.text()).toBe(201);
  const manifest3 = ((await sent.json()) as { transfer: { manifest: string } }).transfer.manifest;
  // head office's recall of Paris's lot while the pack is on the way: Berlin has none of the lot,
  // so its recall stands for the packs that arrive (head office sends standing: true)
  const recalled = await berlin.api!.post("/api/admin/packs/recall", {
    data: { by: "lot", value: "E2E-PAR", reason: "Supplier notice: cells may overheat", standing: true },
    headers: key(),
  });
  expect(recalled.status(), await recalled.text()).toBe(200);
  const before = await stats(berlin);

  const { context, page } = await signedIn(browser, testInfo, berlin);
  await page.goto("/packs/transfers/receive");
  await page.getByLabel("Manifest").fill(manifest3);
  await expect(page.getByText("From Paris · 1 pack")).toBeVisible();
  await page.getByLabel("Type a serial").fill(third);
  await page.getByLabel("Type a serial").press("Enter");
  await page.getByRole("button", { name: "Receive 1 pack" }).click();
  await expect(toast(page).filter({ hasText: `${third} is quarantined: this city has recalled its lot, model or manufacturer.` })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Received 1 pack from Paris" })).toBeVisible();
  const row = page.getByRole("list", { name: "Packs received" }).getByRole("listitem");
  await expect(row).toContainText(third);
  await expect(row).toContainText("Quarantined");
  await expectNoAxeViolations(page, "received transfer with a recalled pack");
  await shot("transfer-received-quarantined", page);

  // the battery is on Berlin's quarantine shelf, not ready: the fleet grows by 1, ready does not
  expect(await packState(berlin, third)).toBe("quarantined");
  expect(await stats(berlin)).toMatchObject({ ready: before.ready, quarantined: before.quarantined + 1, total: before.total + 1, unaccounted: 0 });
  await context.close();
});
