import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import * as React from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PackScanField } from "@/features/scan";
import { refusal, tick } from "@/features/scan/utils/feedback";
import type { Judge } from "@/features/scan/utils/judge";
import { makeQueryClient } from "@/lib/query-client";

// a dialog and its chunk render in a few hundred ms alone, several seconds on a loaded 2-core runner
vi.setConfig({ testTimeout: 20_000 });

// the decoder: a fake that reads codes[] one per frame (the camera is faked below)
const codes = vi.hoisted(() => ({ queue: [] as string[][] }));
vi.mock("@/features/scan/utils/detector", () => ({
  forcePolyfill: () => false,
  createDetector: async () => ({ kind: "native", detect: async () => codes.queue.shift() ?? [] }),
}));
vi.mock("@/features/scan/utils/feedback", () => ({ tick: vi.fn(), refusal: vi.fn() }));

function camera(result: "ok" | DOMException) {
  const track = { stop: vi.fn(), getCapabilities: () => ({}) };
  const stream = { getTracks: () => [track], getVideoTracks: () => [track] };
  const getUserMedia = vi.fn(async () => {
    if (result instanceof DOMException) throw result;
    return stream;
  });
  Object.defineProperty(navigator, "mediaDevices", { value: { getUserMedia }, configurable: true });
  // jsdom plays no video: say a frame is there
  Object.defineProperty(HTMLMediaElement.prototype, "readyState", { get: () => 4, configurable: true });
  vi.spyOn(HTMLMediaElement.prototype, "play").mockResolvedValue(undefined);
  return { getUserMedia, track };
}

function Field({ judge }: { judge?: Judge }) {
  const [value, setValue] = React.useState<string[]>([]);
  return <PackScanField id="dialog.packs" label="Good packs" value={value} onChange={setValue} expected={2} judge={judge} />;
}

function show(judge?: Judge) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json({ packs: [] })),
  );
  render(
    <QueryClientProvider client={makeQueryClient(false)}>
      <Field judge={judge} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.mocked(tick).mockClear();
  vi.mocked(refusal).mockClear();
  sessionStorage.clear();
  codes.queue = [];
});

describe("the scanner", () => {
  it("adds each new code with a tick, ignores a duplicate and a wrong code, and Done keeps the list and stops the camera", async () => {
    const { track } = camera("ok");
    codes.queue = [["https://bay.example/p/SWB-000001"], ["https://bay.example/p/SWB-000001"], ["https://example.com/menu"], ["SWB-000002"]];
    show();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Scan" }));
    const dialog = await screen.findByRole("dialog", { name: "Scan good packs" });
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.getAllByText("2 of 2 scanned").length).toBeGreaterThan(0), { timeout: 3000 });
    expect(dialog.textContent).toContain("SWB-000001");
    expect(dialog.textContent).toContain("SWB-000002");
    expect(screen.getByRole("status").textContent).toBe("Looking for a code…Added SWB-000002");
    await user.click(screen.getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(track.stop).toHaveBeenCalled();
    expect(tick).toHaveBeenCalledTimes(2);
    expect(screen.getByText("2 of 2 scanned")).toBeTruthy();
    expect(JSON.parse(sessionStorage.getItem("swapbay.scan.list.dialog.packs") ?? "[]")).toEqual(["SWB-000001", "SWB-000002"]);
  });

  it("a pack the rules refuse gets the refusal's sound and red with the reason, is listed red, and is not counted", async () => {
    camera("ok");
    const why = "Pack SWB-000002 is quarantined and cannot be handed out";
    codes.queue = [["SWB-000001"], ["SWB-000002"]];
    show((s) => (s === "SWB-000002" ? { refused: true, code: "pack_quarantined", message: why } : { ok: true }));
    await userEvent.setup().click(screen.getByRole("button", { name: "Scan" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(`Looking for a code…Refused: ${why}`), { timeout: 3000 });
    expect(refusal).toHaveBeenCalledTimes(1);
    expect(tick).toHaveBeenCalledTimes(1); // SWB-000001 only
    expect(screen.getByRole("status").querySelector(".text-destructive")).not.toBeNull();
    const row = screen.getAllByRole("listitem").find((li) => li.textContent?.includes("SWB-000002"));
    expect(row?.textContent).toContain(why);
    expect(screen.getAllByText("1 of 2 scanned · 1 refused").length).toBeGreaterThan(0);
  });

  it("shows a wrong code red with why", async () => {
    camera("ok");
    codes.queue = [["WIFI:S:garage;T:WPA;P:x;;"]];
    show();
    await userEvent.setup().click(screen.getByRole("button", { name: "Scan" }));
    expect((await screen.findByText("Not a SwapBay pack label")).className).toContain("text-destructive");
    expect(screen.getAllByText("0 of 2 scanned").length).toBeGreaterThan(0);
  });

  it("says the camera permission was denied and moves focus to typing", async () => {
    camera(new DOMException("denied", "NotAllowedError"));
    show();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Scan" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Camera permission denied. Allow the camera in the browser's settings, or type the serial instead.",
    );
    await user.click(screen.getByRole("button", { name: "Type instead" }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText("Type a serial")));
  });
});
