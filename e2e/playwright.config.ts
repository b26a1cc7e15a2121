import { cpSync, existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM, PHONE } from "./browsers";
import { ADMIN, BASE_URL, BINARY, PORT, SUPERUSER } from "./env";

// One fresh data dir per run, made once in the runner process (workers inherit the env).
process.env.SWAPBAY_E2E_DIR ??= mkdtempSync(path.join(os.tmpdir(), "swapbay-e2e-"));
const dataDir = process.env.SWAPBAY_E2E_DIR;
// The server serves a copy of the UI build from disk (SWAPBAY_UI_DIR), so a test can deploy a
// new version under it (tests/field-offline.spec.ts); the copy is the embedded build, unchanged.
const uiDir = path.join(dataDir, "ui");
const builtUI = path.resolve(import.meta.dirname, "../ui/dist");
if (!existsSync(uiDir) && existsSync(path.join(builtUI, "index.html"))) cpSync(builtUI, uiDir, { recursive: true });
process.env.SWAPBAY_UI_DIR ??= uiDir;

/**
 * PHONE_SPECS run in the phone project only (390×844): a driver's flows — the field app
 * (outbox, offline start), the driver's day, the camera scanner, a damage report and recalls as
 * the driver meets them, the re-sign a driver meets, the first screen at / (its guard), and an
 * admin's stocktake (a shelf counted with a phone in hand), packs sent to and received from another city
 * (scanned at the shelf, phone in hand). (Driver flows that run axe on a state no
 * table row covers — photos, pack-passport, scan-field — run at both widths, so each of those
 * axe checks keeps both widths.)
 */
const PHONE_SPECS = [
  "field-offline",
  "field-seams",
  "first-screen-guard",
  "ops-driver",
  "outbox-photo-answer-lost",
  "pack-safety",
  "scan",
  "stocktake",
  "terms-resign",
  "transfers",
];
/**
 * DESKTOP_SPECS run in the desktop project only (1280×800): an admin's work (a superuser in /_/, system page,
 * backups, replication, head office's tokens, users, corrections, charging and assignments, realtime), what does not
 * depend on the width (delivery's headers and preloads, the Label in Name check's own test).
 */
const DESKTOP_SPECS = [
  "a11y-axe",
  "account-and-users",
  "admin-backups",
  "admin-replication",
  "admin-system",
  "admin-system-throwaway",
  "delivery",
  "head-office",
  "hq",
  "ops-admin",
  "ops-b-admin",
  "ops-realtime",
  "raw-data-door",
  "users-admin",
];
/** only matches the spec files named (tests/<name>.spec.ts). */
const only = (names: string[]) => new RegExp(`[\\\\/](${names.join("|")})\\.spec\\.ts$`);
/**
 * A project's specs run in two parts at once, each on its own server (E2E_PART=1 or 2, set by
 * scripts/run-projects.sh; unset runs them all): PART_ONE_SPECS are the longest specs (~450 s a
 * project in a fresh-clone run, the other part about the same), so `make test`'s four Playwright
 * runs end close together. Which part a spec runs in changes nothing it checks: each part has its
 * own server and data dir, and a spec never reads what another spec wrote.
 */
const PART_ONE_SPECS = ["screens", "a11y-dialogs", "packs"];
const part = process.env.E2E_PART;
/** what a project runs in this part: the widths' own ignore list, plus the other part's specs. */
const inPart = (ignore: string[]) =>
  part === "1"
    ? { testMatch: only(PART_ONE_SPECS), testIgnore: only(ignore) }
    : { testIgnore: part === "2" ? [only(ignore), only(PART_ONE_SPECS)] : only(ignore) };

export default defineConfig({
  testDir: "./tests",
  outputDir: process.env.E2E_OUTPUT ?? "./test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0, // a flaky test is fixed, never retried: CI too
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  // make test runs the e2e suite beside the Go and UI stages on 2 cores: a browser starved of
  // CPU there can stall for over 10 s (FC52: a page saw no WebSocket frame for 16 s, then 20 at
  // once), so an assertion waits up to 20 s. One that passes waits only as long as it needs.
  expect: { timeout: 20_000 },
  reporter: [["list"]],
  globalSetup: "./global-setup.ts",
  use: {
    baseURL: BASE_URL,
    launchOptions: CHROMIUM,
    // No trace by default: recording one costs a quarter of a test's CPU (measured on the demo
    // screens: 65.6 core-s traced, 48.1 not; 56.7 with DOM snapshots only), and make test is
    // CPU-bound on 2 cores. A failure keeps its screenshot and error-context.md (the page's ARIA
    // snapshot); E2E_TRACE=retain-on-failure (or on) records traces for a rerun.
    trace: (process.env.E2E_TRACE as "on" | "retain-on-failure" | undefined) ?? "off",
    // The app registers a service worker (DESIGN.md §12); tests that route or count requests
    // must see them all, so it is blocked unless a spec allows it (tests/field-*.spec.ts).
    serviceWorkers: "block",
    screenshot: "only-on-failure",
  },
  // The widths each test runs at are chosen here, never by test.skip in a spec (issue 44): a
  // behaviour spec runs once, at its users' width; layout, axe and keyboard checks, and the specs
  // whose behaviour differs by width (journey, earnings, terms-admin: a phone's own branch), run
  // at both. A spec mixing the two is split by tag: @desktop or @phone on a test keeps it to
  // that project (screens.spec.ts's widths, pack-safety-keyboard's admin and driver walks).
  projects: [
    { name: "desktop", ...inPart(PHONE_SPECS), grepInvert: /@phone\b/, use: { viewport: { width: 1280, height: 800 } } },
    { name: "phone", ...inPart(DESKTOP_SPECS), grepInvert: /@desktop\b/, use: PHONE },
  ],
  webServer: {
    command: `node scripts/serve.mjs ${BINARY} ${dataDir} 127.0.0.1:${PORT}`,
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      SWAPBAY_UI_DIR: uiDir,
      E2E_SUPERUSER_EMAIL: SUPERUSER.email,
      E2E_SUPERUSER_PASSWORD: SUPERUSER.password,
      E2E_ADMIN_EMAIL: ADMIN.email,
      E2E_ADMIN_PASSWORD: ADMIN.password,
      E2E_ADMIN_FIRST: ADMIN.firstName,
      E2E_ADMIN_LAST: ADMIN.lastName,
    },
  },
});
