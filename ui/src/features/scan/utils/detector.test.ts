import { afterEach, describe, expect, it, vi } from "vitest";

// the polyfill, as its module would answer (its wasm is never fetched here)
const ponyfill = vi.hoisted(() => ({
  prepareZXingModule: vi.fn(async (_o: { overrides: { locateFile: (path: string, prefix: string) => string }; fireImmediately: boolean }) => ({})),
  detect: vi.fn(async () => [{ rawValue: "https://bay.example/p/SWB-000001" }]),
}));
vi.mock("barcode-detector/ponyfill", () => ({
  prepareZXingModule: ponyfill.prepareZXingModule,
  BarcodeDetector: class {
    detect = ponyfill.detect;
  },
}));

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  history.replaceState(null, "", "/");
});

function native(formats: string[]) {
  const detect = vi.fn(async () => [{ rawValue: "SWB-000009" }]);
  vi.stubGlobal(
    "BarcodeDetector",
    class {
      static getSupportedFormats = async () => formats;
      detect = detect;
    },
  );
  return detect;
}

describe("createDetector", () => {
  it("uses the browser's detector when it reads QR codes", async () => {
    const detect = native(["ean_13", "qr_code"]);
    const { createDetector } = await import("@/features/scan/utils/detector");
    const d = await createDetector();
    expect(d.kind).toBe("native");
    expect(await d.detect(document.createElement("video"))).toEqual(["SWB-000009"]);
    expect(detect).toHaveBeenCalledOnce();
  });

  it("uses the polyfill when the browser's cannot read QR codes, or when forced, with the wasm from this site", async () => {
    native(["ean_13"]);
    const { createDetector, forcePolyfill } = await import("@/features/scan/utils/detector");
    const d = await createDetector();
    expect(d.kind).toBe("polyfill");
    expect(await d.detect(document.createElement("video"))).toEqual(["https://bay.example/p/SWB-000001"]);
    const { overrides, fireImmediately } = ponyfill.prepareZXingModule.mock.calls[0]![0];
    expect(fireImmediately).toBe(true);
    // the package's default is a CDN; the app's own asset is asked for instead
    const wasm = new URL(overrides.locateFile("zxing_reader.wasm", "https://fastly.jsdelivr.net/npm/zxing-wasm/dist/reader/"));
    expect(wasm.origin).toBe(location.origin);
    expect(wasm.pathname).toMatch(/zxing_reader.*\.wasm$/);

    native(["qr_code"]);
    expect(forcePolyfill()).toBe(false);
    localStorage.setItem("swapbay.scan.forcePolyfill", "1");
    expect(forcePolyfill()).toBe(true);
    expect((await createDetector(forcePolyfill())).kind).toBe("polyfill");
    localStorage.clear();
    history.replaceState(null, "", "/?scanPolyfill=1");
    expect(forcePolyfill()).toBe(true);
    expect(ponyfill.prepareZXingModule).toHaveBeenCalledOnce(); // the module is prepared once a page
  });
});
