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

export default defineConfig({
  testDir: "./tests",
  outputDir: process.env.E2E_OUTPUT ?? "./test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0, // a flaky test is fixed, never retried: CI too
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  globalSetup: "./global-setup.ts",
  use: {
    baseURL: BASE_URL,
    launchOptions: CHROMIUM,
    trace: "retain-on-failure",
    // The app registers a service worker (DESIGN.md §12); tests that route or count requests
    // must see them all, so it is blocked unless a spec allows it (tests/field-*.spec.ts).
    serviceWorkers: "block",
    screenshot: "only-on-failure",
  },
  projects: [
    // the field app (outbox, offline start) the camera scanner and an offline damage report are a phone's: their specs run in the phone project only;
    // so does the first-screen guard (the phone's first screen at /)
    { name: "desktop", testIgnore: /(field-(offline|seams)|scan|pack-safety|first-screen-guard)\.spec\.ts$/, use: { viewport: { width: 1280, height: 800 } } },
    { name: "phone", use: PHONE },
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
