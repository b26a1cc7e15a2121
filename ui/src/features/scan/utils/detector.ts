// The QR decoder behind the scanner (DESIGN.md §14 Scanning): the browser's BarcodeDetector
// where it has one that reads QR codes (Chrome on Android, macOS, ChromeOS), else the
// barcode-detector ponyfill (ZXing-C++ in WebAssembly). Its wasm is a Vite asset of this app,
// precached by the service worker, never the package's CDN default: no request leaves the site
// and the scanner works offline. Only the scanner's chunk imports this file.
import type { BarcodeDetector as PonyfillDetector } from "barcode-detector/ponyfill";
import wasmUrl from "zxing-wasm/reader/zxing_reader.wasm?url";

/** Detector finds the QR codes in a video frame, answering their texts. */
export type Detector = { kind: "native" | "polyfill"; detect: (source: HTMLVideoElement | ImageBitmapSource) => Promise<string[]> };

/** FORCE_POLYFILL_KEY is the localStorage key ("1") or query parameter (?scanPolyfill=1) that forces the polyfill (tests, the bench). */
export const FORCE_POLYFILL_KEY = "swapbay.scan.forcePolyfill";

/** forcePolyfill reports whether the polyfill is forced for this page. */
export function forcePolyfill(): boolean {
  try {
    if (new URLSearchParams(location.search).get("scanPolyfill") === "1") return true;
    return localStorage.getItem(FORCE_POLYFILL_KEY) === "1";
  } catch {
    return false;
  }
}

type NativeDetector = { detect: (s: unknown) => Promise<{ rawValue: string }[]> };
type NativeDetectorClass = {
  new (o: { formats: string[] }): NativeDetector;
  getSupportedFormats: () => Promise<string[]>;
};

async function nativeDetector(): Promise<Detector | null> {
  const Native = (globalThis as unknown as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (!Native) return null;
  try {
    if (!(await Native.getSupportedFormats()).includes("qr_code")) return null;
    const d = new Native({ formats: ["qr_code"] });
    return { kind: "native", detect: async (s) => (await d.detect(s)).map((b) => b.rawValue) };
  } catch {
    return null;
  }
}

let polyfill: Promise<PonyfillDetector> | undefined;

/** polyfillDetector loads the ponyfill and its wasm from this site (once per page). */
function polyfillDetector(): Promise<PonyfillDetector> {
  polyfill ??= import("barcode-detector/ponyfill")
    .then(async (m) => {
      // the wasm from this site (not the package's CDN default), compiled now rather than on the first frame
      await m.prepareZXingModule({
        overrides: { locateFile: (path: string, prefix: string) => (path.endsWith(".wasm") ? new URL(wasmUrl, location.href).href : prefix + path) },
        fireImmediately: true,
      });
      return new m.BarcodeDetector({ formats: ["qr_code"] });
    })
    .catch((e: unknown) => {
      polyfill = undefined;
      throw e;
    });
  return polyfill;
}

/** createDetector answers the native detector unless forced or missing, else the polyfill. */
export async function createDetector(force = false): Promise<Detector> {
  const native = force ? null : await nativeDetector();
  if (native) return native;
  const d = await polyfillDetector();
  return { kind: "polyfill", detect: async (s) => (await d.detect(s as ImageBitmapSourceWebCodecs)).map((b) => b.rawValue) };
}

type ImageBitmapSourceWebCodecs = Parameters<PonyfillDetector["detect"]>[0];
