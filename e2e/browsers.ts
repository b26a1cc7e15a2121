// The browser every e2e run and browser bench uses: Debian's Chromium (Playwright never
// downloads one here) with the same flags, and the phone the phone project emulates. One
// place, so a fake-camera browser (camera.ts) is the same browser as the tests'.
import type { LaunchOptions } from "@playwright/test";

/** CHROMIUM is the launch options of every Chromium the tests start. */
export const CHROMIUM = {
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
} satisfies LaunchOptions;

/** PHONE is the phone project's device: a 390 × 844 touch screen with a mobile viewport. */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
