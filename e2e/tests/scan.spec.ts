// The camera scanner (issue 36 proof; DESIGN.md §14 Scanning), phone project only: Chromium's
// fake camera plays a video of labels printed by the app's own label code (e2e/camera.ts).
// A driver opens the scanner on the pickup form: the 3 labels are listed with serial, model
// and state, a label seen again is not listed twice, and the list survives a reload; with the
// polyfill forced, a label whose serial was never minted shows red with its reason and the
// rest of the list is kept. During a scan no request goes to any host but the test server (the
// zxing wasm included), and the open scanner is axe clean at 390 px, 360 px and in landscape.
import path from "node:path";
import type { APIRequestContext, Page, PlaywrightWorkerArgs, Request } from "@playwright/test";
import { expectNoAxeViolations } from "../a11y";
import { type CameraPhone, appLabels, cameraDir, cameraPhone, cameraVideo, pickupScanButton, removeCameraDir, unmintedLabels } from "../camera";
import { BASE_URL, SCREENSHOTS } from "../env";
import { newDriver } from "../field";
import { apiAs, expect, seedUser, setPackTracking, test } from "../fixtures";

const MODEL = "Nova 48V 15Ah";

/** signedIn is an API client of the test server signed in as a new user of role. */
async function signedIn(playwright: PlaywrightWorkerArgs["playwright"], pb: Parameters<typeof seedUser>[0], email: string, role: "admin" | "master_admin") {
  const password = `${role}-secret-1`;
  await seedUser(pb, { email, password, firstName: "Sam", lastName: role === "admin" ? "Scanner" : "Mode", role });
  return apiAs(playwright.request, { email, password });
}

/** mintThree mints 3 packs of a new lot as admin and answers their serials. */
async function mintThree(admin: APIRequestContext): Promise<string[]> {
  const lot = `E2E-SCAN-${Date.now().toString(36).toUpperCase()}`;
  const res = await admin.post("/api/admin/packs/mint", {
    data: { count: 3, model: MODEL, chemistry: "NMC", nominalWh: 720, manufacturer: "Voltcell", lot, manufactured: "2026-03" },
    headers: { "Idempotency-Key": `mint-${lot}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()).packs as { serial: string }[]).map((p) => p.serial);
}

/** elsewhere lists the requests of log that went to another host than the test server. */
function elsewhere(log: Request[]): string[] {
  return log.map((r) => r.url()).filter((u) => !u.startsWith(`${BASE_URL}/`) && !u.startsWith("data:") && !u.startsWith("blob:"));
}

/** recordStatuses keeps, in page, every text the open scanner's status line shows, in order; statuses reads them. */
async function recordStatuses(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __statuses: string[] };
    w.__statuses = [];
    new MutationObserver(() => {
      const text = document.querySelector('[role="dialog"] [role="status"]')?.textContent;
      if (text && text !== w.__statuses.at(-1)) w.__statuses.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

function statuses(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses);
}

/** viewShot saves what the phone's screen shows (the open scanner is a dialog over the page) as screenshots/phone-<name>.png. */
async function viewShot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENSHOTS, `phone-${name}.png`) });
}

/** fitsWidth checks that page does not scroll sideways. */
async function fitsWidth(page: Page, label: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), label).toBeLessThanOrEqual(0);
}

let dir: string;
let phone: CameraPhone | undefined;
let master: APIRequestContext;
let admin: APIRequestContext;

test.beforeEach(async ({ playwright, pb, unique }) => {
  dir = cameraDir();
  admin = await signedIn(playwright, pb, unique("scan-admin"), "admin");
  master = await signedIn(playwright, pb, unique("scan-master"), "master_admin");
  await setPackTracking(master, "optional");
});

test.afterEach(async () => {
  await phone?.close();
  phone = undefined;
  // back to off: the other specs on this server count batteries only
  await setPackTracking(master, "off");
  await admin.dispose();
  await master.dispose();
  removeCameraDir(dir);
});

test("a driver scans 3 labels: each listed once with model and state, kept across a reload; no other host; axe clean", async ({ pb, unique }) => {
  const [a, b, c] = await mintThree(admin);
  const labels = await appLabels(admin, [a!, b!, c!], dir);
  // an empty frame first (the scanner says it is looking), then a, b, a again and c; looped
  phone = await cameraPhone(cameraVideo(["blank", labels[0]!, labels[1]!, labels[0]!, labels[2]!], dir, 1.5));
  const { page } = phone;
  await newDriver(page, pb, unique("scan-driver"), { firstName: "Cam", lastName: "Driver" });
  const log: Request[] = [];
  page.on("request", (r) => log.push(r));

  await recordStatuses(page);
  await pickupScanButton(page).tap();
  const dialog = page.getByRole("dialog", { name: "Scan packs" });
  const list = dialog.getByRole("list", { name: "Packs scanned" });
  for (const serial of [a!, b!, c!]) {
    const row = list.getByRole("listitem").filter({ hasText: serial });
    await expect(row).toContainText(`${MODEL} · In service`, { timeout: 20_000 });
  }
  await expect(list.getByRole("listitem")).toHaveCount(3);
  // it said what it was doing: looking, before the first code was added
  const said = await statuses(page);
  expect(said.indexOf("Looking for a code…"), said.join(" | ")).toBeGreaterThanOrEqual(0);
  // the status reads "Looking for a code…" the whole time; what the last code did shows under it
  const firstAdded = said.findIndex((s) => s.includes("Added "));
  expect(firstAdded, said.join(" | ")).toBeGreaterThan(0);
  expect(said.indexOf("Looking for a code…"), said.join(" | ")).toBeLessThan(firstAdded);
  expect(said[firstAdded], said.join(" | ")).toMatch(/^Looking for a code…Added /);
  expect(elsewhere(log), "requests to another host during the scan").toEqual([]);

  await expectNoAxeViolations(page, "the open scanner at 390 px");
  await viewShot(page, "scan-open");
  await page.setViewportSize({ width: 360, height: 740 });
  await expectNoAxeViolations(page, "the open scanner at 360 px");
  await fitsWidth(page, "the open scanner at 360 px");
  await viewShot(page, "scan-open-360");
  await page.setViewportSize({ width: 740, height: 360 });
  await expectNoAxeViolations(page, "the open scanner in landscape");
  await fitsWidth(page, "the open scanner in landscape");
  await viewShot(page, "scan-open-landscape");
  await page.setViewportSize({ width: 390, height: 844 });

  // the video loops: a label seen again is refused as listed, and the list stays at 3
  await expect(dialog.getByRole("status")).toContainText(/^Looking for a code….+ is already listed$/, { timeout: 15_000 });
  await expect(list.getByRole("listitem")).toHaveCount(3);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();

  // a reload keeps the list
  await page.reload();
  const kept = page.getByRole("form", { name: "Battery Pickup" }).getByRole("list", { name: "Packs scanned" });
  await expect(kept.getByRole("listitem")).toHaveCount(3);
  for (const serial of [a!, b!, c!]) await expect(kept.getByRole("listitem").filter({ hasText: serial })).toContainText(`${MODEL} · In service`);
  expect(elsewhere(log), "requests to another host").toEqual([]);
});

test("with the polyfill forced, a label never minted shows red with why and the rest of the list is kept", async ({ pb, unique }) => {
  const [a, b] = await mintThree(admin);
  const never = `NOPE-${Date.now().toString(36).toUpperCase()}`;
  const [la, lb] = await appLabels(admin, [a!, b!], dir);
  const [lx] = unmintedLabels([never], dir);
  phone = await cameraPhone(cameraVideo(["blank", la!, lx!, lb!], dir, 1.5));
  const { page } = phone;
  await page.addInitScript(() => localStorage.setItem("swapbay.scan.forcePolyfill", "1"));
  await newDriver(page, pb, unique("scan-poly"), { firstName: "Poly", lastName: "Fill" });
  const log: Request[] = [];
  page.on("request", (r) => log.push(r));

  await pickupScanButton(page).tap();
  const dialog = page.getByRole("dialog", { name: "Scan packs" });
  const list = dialog.getByRole("list", { name: "Packs scanned" });
  // the video loops: whichever label the camera starts on, all three are listed
  for (const serial of [a!, never, b!]) await expect(list.getByRole("listitem").filter({ hasText: serial })).toHaveCount(1, { timeout: 20_000 });
  await expect(list.getByRole("listitem")).toHaveCount(3);
  const refused = list.getByRole("listitem").filter({ hasText: never }).getByText("Unknown pack — not in the registry");
  await expect(refused).toBeVisible();
  await expect(refused).toHaveClass(/text-destructive/);
  for (const serial of [a!, b!]) await expect(list.getByRole("listitem").filter({ hasText: serial })).toContainText(`${MODEL} · In service`);

  // the decoder's wasm came from the test server: the polyfill ran, and nothing left the site
  expect(log.map((r) => r.url()).filter((u) => u.endsWith(".wasm"))).toEqual([expect.stringMatching(new RegExp(`^${BASE_URL}/`))]);
  expect(elsewhere(log), "requests to another host during the scan").toEqual([]);
});
