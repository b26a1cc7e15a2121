// The fake camera (issue 36 proof): labels printed by the app's own label code, rendered and
// played as a video that Chromium streams as its camera. A video is chosen when Chromium
// starts (--use-file-for-fake-video-capture), so each video gets its own browser: cameraPhone
// launches one with the tests' flags (browsers.ts) and gives a phone page on the test server.
//
//   const labels = [...(await appLabels(admin.request, [a, b, c], dir)), ...unmintedLabels([x], dir)];
//   const video = cameraVideo([labels[0], labels[1], labels[0], labels[2]], dir);
//   const phone = await cameraPhone(video);
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type APIRequestContext, type Browser, type BrowserContext, type BrowserContextOptions, type LaunchOptions, type Page, type ViewportSize, chromium } from "@playwright/test";
import { CHROMIUM, PHONE } from "./browsers";
import { BASE_URL } from "./env";

const ROOT = path.resolve(import.meta.dirname, "..");

/** SheetLabel is one label of a label sheet PDF: the file and the label's place on it (0-based, 24 a page). */
export type SheetLabel = { sheet: string; slot: number; serial: string };

/** cameraDir makes a temp dir for a test's sheets and videos (a video is ~4.6 MB a second): remove it with rmSync when done. */
export function cameraDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), "swapbay-camera-"));
}

/**
 * appLabels downloads the app's label sheet of serials (GET /api/admin/packs/labels, as the
 * admin signed in on request) into dir: one label per serial, in the order asked.
 */
export async function appLabels(request: APIRequestContext, serials: string[], dir: string): Promise<SheetLabel[]> {
  const res = await request.get(`/api/admin/packs/labels?serials=${encodeURIComponent(serials.join(","))}`);
  if (!res.ok()) throw new Error(`label sheet: ${res.status()} ${await res.text()}`);
  const sheet = path.join(dir, `sheet-${Date.now().toString(36)}.pdf`);
  writeFileSync(sheet, await res.body());
  return serials.map((serial, slot) => ({ sheet, slot, serial }));
}

/**
 * unmintedLabels prints labels for serials that were never minted, with the app's label code
 * (internal/labelsheet: the route prints only registered packs), for the site site.
 */
export function unmintedLabels(serials: string[], dir: string, site = BASE_URL): SheetLabel[] {
  const sheet = path.join(dir, `unminted-${Date.now().toString(36)}.pdf`);
  // -trimpath and no cgo, as `make build`: the build cache it left serves this build too
  execFileSync("go", ["run", "-trimpath", "./internal/labelsheet", "-site", site, "-o", sheet, ...serials], {
    cwd: ROOT,
    env: { ...process.env, GOTOOLCHAIN: "auto", CGO_ENABLED: "0" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  return serials.map((serial, slot) => ({ sheet, slot, serial }));
}

/**
 * cameraVideo makes the camera's video in dir: each label, in order (a label may repeat), for
 * seconds, centred on a white 640×480 frame at 10 frames a second, "blank" an empty frame
 * (e2e/scripts/camera-video.sh). Chromium loops it.
 */
export function cameraVideo(labels: (SheetLabel | "blank")[], dir: string, seconds = 2): string {
  const video = path.join(dir, `camera-${Date.now().toString(36)}.y4m`);
  const items = labels.map((l) => (l === "blank" ? l : `${l.sheet}:${l.slot}`));
  execFileSync("bash", [path.join(ROOT, "e2e/scripts/camera-video.sh"), video, String(seconds), ...items], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  return video;
}

/** CameraPhone is a Chromium whose camera plays a video, and a phone page in it. */
export type CameraPhone = { browser: Browser; context: BrowserContext; page: Page; close: () => Promise<void> };

/**
 * launchCamera launches Chromium with the tests' flags and video as its camera (the fake device,
 * no permission prompt): the tests' browser, or the full one (the scanner bench).
 */
export function launchCamera(video: string, browser: LaunchOptions = CHROMIUM): Promise<Browser> {
  return chromium.launch({
    ...browser,
    args: [...(browser.args ?? []), "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", `--use-file-for-fake-video-capture=${video}`],
  });
}

/** PhoneOptions are a phone context's: the server, another viewport (360 px, landscape) and a signed-in state. */
export type PhoneOptions = { baseURL?: string; viewport?: ViewportSize; storageState?: BrowserContextOptions["storageState"] };

/**
 * phoneContext opens a context of browser as the phone project's device (or viewport) on
 * baseURL, the camera allowed; the service worker is blocked, as in the tests, so every
 * request shows in the log.
 */
export function phoneContext(browser: Browser, opts: PhoneOptions = {}): Promise<BrowserContext> {
  return browser.newContext({
    ...PHONE,
    ...(opts.viewport ? { viewport: opts.viewport } : {}),
    baseURL: opts.baseURL ?? BASE_URL,
    storageState: opts.storageState,
    serviceWorkers: "block",
    permissions: ["camera"],
  });
}

/** cameraPhone launches Chromium with video as its camera and opens a phone page on the server. */
export async function cameraPhone(video: string, opts: PhoneOptions = {}): Promise<CameraPhone> {
  const browser = await launchCamera(video);
  const context = await phoneContext(browser, opts);
  const page = await context.newPage();
  return { browser, context, page, close: () => browser.close() };
}

/** removeCameraDir removes a cameraDir and everything in it. */
export function removeCameraDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * pickupScanButton is the Scan button of the driver's Battery Pickup form (shown while pack
 * tracking is optional or required) on the driver home.
 */
export function pickupScanButton(page: Page) {
  return page.getByRole("form", { name: "Battery Pickup" }).getByRole("button", { name: "Scan", exact: true });
}

/**
 * startScanTimer marks in page the time of the next tap on a "Scan" button (its pointerdown)
 * and of the first pack a scanned list shows; scanTimer reads them (ms since the page's start).
 */
export async function startScanTimer(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __scanTap?: number; __scanFirst?: number };
    w.__scanTap = undefined;
    w.__scanFirst = undefined;
    const tapped = (e: Event) => {
      const b = (e.target as Element | null)?.closest("button");
      if (w.__scanTap === undefined && b?.textContent?.trim() === "Scan") w.__scanTap = performance.now();
    };
    document.addEventListener("pointerdown", tapped, true);
    document.addEventListener("click", tapped, true);
    const seen = () => {
      if (w.__scanFirst === undefined && w.__scanTap !== undefined && document.querySelector('ul[aria-label$=" scanned"] > li')) {
        w.__scanFirst = performance.now();
        observer.disconnect();
      }
    };
    const observer = new MutationObserver(seen);
    observer.observe(document.body, { subtree: true, childList: true });
  });
}

/** ScanTime is one scan timed by startScanTimer: ms from the tap to the first pack listed, and to each of the scanner's performance marks ("scan:open", "scan:camera", "scan:detector:polyfill", …). */
export type ScanTime = { ms: number; marks: Record<string, number> };

/** scanTimer waits (up to timeout) for the first pack listed and answers the times from the tap on Scan. */
export async function scanTimer(page: Page, timeout = 30_000): Promise<ScanTime> {
  await page.waitForFunction(() => (window as unknown as { __scanFirst?: number }).__scanFirst !== undefined, null, { timeout });
  return page.evaluate(() => {
    const w = window as unknown as { __scanTap: number; __scanFirst: number };
    const marks: Record<string, number> = {};
    for (const m of performance.getEntriesByType("mark")) if (m.name.startsWith("scan:") && !(m.name in marks)) marks[m.name] = m.startTime - w.__scanTap;
    return { ms: w.__scanFirst - w.__scanTap, marks };
  });
}
