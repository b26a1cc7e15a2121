// The browser part of `make bench`'s scanner measurement (go run ./internal/bench -only scan):
// internal/bench starts the server, makes the camera's video and runs this config's one
// spec with SCAN_BENCH_* in the environment; the spec writes its figures to SCAN_BENCH_OUT.
// No webServer: the bench's server is already up. Not part of `make test`.
import { defineConfig } from "@playwright/test";
import { FULL_CHROMIUM } from "./browsers";

export default defineConfig({
  testDir: "./bench",
  testMatch: /\.bench\.ts$/,
  outputDir: process.env.E2E_OUTPUT ?? "./test-results/bench",
  workers: 1,
  retries: 0,
  timeout: 15 * 60_000,
  reporter: [["list"]],
  use: { launchOptions: FULL_CHROMIUM, trace: "off", screenshot: "off" },
});
