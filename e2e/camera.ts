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
import { type APIRequestContext, type Browser, type BrowserContext, type Page, type ViewportSize, chromium } from "@playwright/test";
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
 * seconds, centred on a white 640×480 frame at 10 frames a second (e2e/scripts/camera-video.sh).
 * Chromium loops it.
 */
export function cameraVideo(labels: SheetLabel[], dir: string, seconds = 2): string {
  const video = path.join(dir, `camera-${Date.now().toString(36)}.y4m`);
  execFileSync("bash", [path.join(ROOT, "e2e/scripts/camera-video.sh"), video, String(seconds), ...labels.map((l) => `${l.sheet}:${l.slot}`)], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  return video;
}

/** CameraPhone is a Chromium whose camera plays a video, and a phone page in it. */
export type CameraPhone = { browser: Browser; context: BrowserContext; page: Page; close: () => Promise<void> };

/**
 * cameraPhone launches Chromium with video as its camera (the fake device, permission granted
 * without a prompt) and opens a phone page (the phone project's device, or viewport) on
 * baseURL; the service worker is blocked, as in the tests, so every request shows in the log.
 */
export async function cameraPhone(video: string, opts: { baseURL?: string; viewport?: ViewportSize } = {}): Promise<CameraPhone> {
  const browser = await chromium.launch({
    ...CHROMIUM,
    args: [...CHROMIUM.args, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", `--use-file-for-fake-video-capture=${video}`],
  });
  const baseURL = opts.baseURL ?? BASE_URL;
  const context = await browser.newContext({
    ...PHONE,
    ...(opts.viewport ? { viewport: opts.viewport } : {}),
    baseURL,
    serviceWorkers: "block",
    permissions: ["camera"],
  });
  const page = await context.newPage();
  return { browser, context, page, close: () => browser.close() };
}

/** removeCameraDir removes a cameraDir and everything in it. */
export function removeCameraDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
