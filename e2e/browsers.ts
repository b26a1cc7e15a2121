// The browsers every e2e run and browser bench use: Debian's (Playwright never downloads one
// here) with the same flags, and the phone the phone project emulates. One place, so a
// fake-camera browser (camera.ts) is the same browser as the tests'.
import type { LaunchOptions } from "@playwright/test";

const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

/**
 * CHROMIUM is the launch options of every Chromium the tests start: Debian's
 * chromium-headless-shell, Chromium's own headless build of the same version as
 * /usr/bin/chromium (the same engine, without the desktop browser's layers). Both projects'
 * whole e2e run alone on the 2-core machine: 809 busy core-s in the shell against 1,028 in the
 * full browser; in `make test` the e2e stage went 821 s (full) → 711 and 689 s (shell),
 * 2026-11-29. The keyboard specs are steady in it: in the full browser, transfers.spec's Tab
 * left the page (the focus on the body) in 3 of 8 runs and pack-safety-keyboard's Enter opened
 * no file chooser in 2 of 4; in the shell, neither in 6 runs each. E2E_CHROMIUM=/usr/bin/chromium
 * runs the tests in the full browser.
 */
export const CHROMIUM = {
  executablePath: process.env.E2E_CHROMIUM ?? "/usr/bin/chromium-headless-shell",
  args: ARGS,
} satisfies LaunchOptions;

/** FULL_CHROMIUM is the full browser, for the benches: what a person's Chromium does. */
export const FULL_CHROMIUM = { executablePath: "/usr/bin/chromium", args: ARGS } satisfies LaunchOptions;

/** PHONE is the phone project's device: a 390 × 844 touch screen with a mobile viewport. */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
