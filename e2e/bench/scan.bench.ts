// The scanner's speed (issue 36 item 3), run by internal/bench (`make bench`, `go run
// ./internal/bench -only scan`): a driver's phone (the phone project's device) whose fake
// camera streams a label of a registered pack. For each detector path — the browser's own
// BarcodeDetector where it has one, and the barcode-detector polyfill (forced with
// localStorage["swapbay.scan.forcePolyfill"]) — SCAN_BENCH_RUNS times on a fresh page (a new
// context: cold cache, nothing kept): the driver home, then the time from the tap on "Scan" in
// the pickup form to the first pack listed. Then one 640×480 frame of the camera decoded by
// the polyfill's detect() on its ImageData in the page, after a warm-up. Figures in ms to
// SCAN_BENCH_OUT (JSON).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Page, expect, test } from "@playwright/test";
import { FULL_CHROMIUM } from "../browsers";
import { type ScanTime, launchCamera, phoneContext, pickupScanButton, scanTimer, startScanTimer } from "../camera";

function env(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (internal/bench sets it)`);
  return v;
}

const IIFE = path.resolve(import.meta.dirname, "../../ui/node_modules/barcode-detector/dist/iife/ponyfill.js");

test("scan: tap on Scan to the first pack listed; one frame decoded", async () => {
  const baseURL = env("SCAN_BENCH_BASE");
  const runs = Number(env("SCAN_BENCH_RUNS"));
  const expected = env("SCAN_BENCH_CODE"); // what the label's QR holds
  const browser = await launchCamera(env("SCAN_BENCH_VIDEO"), FULL_CHROMIUM);
  // one sign-in, then every run starts from its cookie (PocketBase limits sign-ins per address)
  const first = await phoneContext(browser, { baseURL });
  const login = await first.request.post("/api/login", { data: { email: env("SCAN_BENCH_EMAIL"), password: env("SCAN_BENCH_PASSWORD") } });
  expect(login.status(), await login.text()).toBe(200);
  const storageState = await first.storageState();
  const probe = await first.newPage();
  await probe.goto("/");
  const native = await probe.evaluate(() => "BarcodeDetector" in window);
  const userAgent = await probe.evaluate(() => navigator.userAgent);
  await first.close();

  const out: Record<string, unknown> = { nativeAvailable: native, userAgent, runs };
  const paths = [
    { name: "native", force: false },
    { name: "polyfill", force: true },
  ];
  for (const p of paths) {
    if (p.name === "native" && !native) continue; // no detector here: nothing to measure, reported as such
    const times: ScanTime[] = [];
    for (let i = 0; i < runs; i++) {
      const context = await phoneContext(browser, { baseURL, storageState });
      if (p.force) await context.addInitScript(() => localStorage.setItem("swapbay.scan.forcePolyfill", "1"));
      const page = await context.newPage();
      await page.goto("/");
      const scan = pickupScanButton(page);
      await expect(scan).toBeVisible({ timeout: 30_000 });
      await startScanTimer(page);
      await scan.tap();
      const t = await scanTimer(page);
      // the path measured is the one asked for (the scanner marks the detector it made)
      if (!(`scan:detector:${p.name}` in t.marks)) throw new Error(`run ${i + 1} of ${p.name}: the scanner made ${Object.keys(t.marks).join(", ")}`);
      times.push(t);
      if (p.name === "polyfill" && i === runs - 1) out.decode = await decodeFrame(page, expected);
      await context.close();
    }
    out[p.name] = times;
  }
  await browser.close();
  writeFileSync(env("SCAN_BENCH_OUT"), JSON.stringify(out));
});

/**
 * decodeFrame takes one frame of the open scanner's camera as 640×480 ImageData, closes the
 * scanner (its own decoding stops) and times the polyfill's detect() on the frame: the same
 * barcode-detector release the app bundles (its self-contained build, evaluated in the page)
 * with the wasm the app serves, as the scanner loaded it (its URL from the page's resource
 * timing). 5 warm-up calls, then 30 timed.
 */
async function decodeFrame(page: Page, expected: string) {
  await page.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>('[role="dialog"] video');
    if (!video || video.videoWidth === 0) throw new Error(`no camera picture (${video ? "no frame yet" : "no video in the scanner"})`);
    const canvas = document.createElement("canvas");
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
    ctx.drawImage(video, 0, 0);
    (window as unknown as { __frame: ImageData }).__frame = ctx.getImageData(0, 0, canvas.width, canvas.height);
  });
  await page.getByRole("dialog").getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const version = JSON.parse(readFileSync(path.resolve(IIFE, "../../../package.json"), "utf8")).version as string;
  await page.evaluate(readFileSync(IIFE, "utf8") + ";void 0");
  return page.evaluate(
    async ({ expected, version }) => {
      type Api = {
        prepareZXingModule: (o: unknown) => Promise<unknown>;
        BarcodeDetector: new (o: { formats: string[] }) => { detect: (s: ImageData) => Promise<{ rawValue: string }[]> };
      };
      const api = (window as unknown as { BarcodeDetectionAPI: Api }).BarcodeDetectionAPI;
      const frame = (window as unknown as { __frame: ImageData }).__frame;
      const wasm = performance
        .getEntriesByType("resource")
        .map((e) => e.name)
        .find((n) => n.endsWith(".wasm"));
      if (!wasm) throw new Error("the scanner loaded no .wasm");
      if (new URL(wasm).origin !== location.origin) throw new Error(`the wasm came from ${wasm}`);
      await api.prepareZXingModule({
        overrides: { locateFile: (p: string, prefix: string) => (p.endsWith(".wasm") ? wasm : prefix + p) },
        fireImmediately: true,
      });
      const detector = new api.BarcodeDetector({ formats: ["qr_code"] });
      let found: string[] = [];
      for (let i = 0; i < 5; i++) found = (await detector.detect(frame)).map((b) => b.rawValue);
      if (!found.includes(expected)) throw new Error(`the frame decoded as ${JSON.stringify(found)}, not ${expected}`);
      const times: number[] = [];
      for (let i = 0; i < 30; i++) {
        const t = performance.now();
        await detector.detect(frame);
        times.push(performance.now() - t);
      }
      return { width: frame.width, height: frame.height, wasm: new URL(wasm).pathname, version, times };
    },
    { expected, version },
  );
}
