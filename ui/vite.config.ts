/// <reference types="vitest/config" />
import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { bootScriptPlugin } from "./build/boot-script.ts";
import { CHUNK_GROUPS, chunkGroupsCheck, firstScreenChunkName } from "./build/chunk-groups.ts";
import { FIRST_SCREEN_ROUTES, GUEST_ROUTES } from "./src/app/first-screen-routes.ts";

// The Go binary embeds ui/dist (ui/embed.go); dist/.keep must survive a build so that
// `go build` works on a fresh clone, hence emptyOutDir is off and the build script
// removes only the old assets.
export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    bootScriptPlugin(),
    chunkGroupsCheck(),
    // The installable app (DESIGN.md §12): a manifest and a Workbox service worker that
    // precaches the shell and every hashed asset. It answers navigations with the cached
    // index.html, except /api/, /ws and /_/, and caches no API answer (the offline figures
    // live in IndexedDB: lib/offline-cache.ts). The app registers it itself, after the first
    // screen (lib/pwa.ts), and asks before applying a new version (registerType prompt).
    VitePWA({
      registerType: "prompt",
      injectRegister: false,
      filename: "sw.js",
      manifestFilename: "manifest.webmanifest",
      includeManifestIcons: true,
      manifest: {
        id: "/",
        name: "SwapBay",
        short_name: "SwapBay",
        description: "Battery swap operations for drivers, admins and the corporate liaison.",
        start_url: "/",
        scope: "/",
        display: "standalone",
        orientation: "portrait",
        theme_color: "#16a34a",
        background_color: "#ffffff",
        icons: [
          { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
      },
      workbox: {
        // the icons and the manifest are added by the plugin (includeManifestIcons)
        globPatterns: ["index.html", "assets/**/*.{js,css,wasm}"],
        navigateFallback: "/index.html",
        navigateFallbackDenylist: [/^\/api\//, /^\/ws(\/|$)/, /^\/_\//],
        runtimeCaching: [],
        cleanupOutdatedCaches: true,
        // the first install takes the open page at once, so its lazy screens load from the
        // cache if the network drops before a reload; a new version still waits for Reload
        clientsClaim: true,
        inlineWorkboxRuntime: true,
        // the rich-text editor's chunk is ~420 KB, the scanner's QR decoder (zxing_reader.wasm) ~1.1 MB:
        // the scanner works offline (DESIGN.md §14)
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
        // hashed names: the URL is the revision
        dontCacheBustURLsMatching: /^assets\//,
        sourcemap: false,
      },
    }),
  ],
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "src") } },
  server: {
    proxy: {
      "/api": { target: "http://127.0.0.1:8090", changeOrigin: false },
      "/ws": { target: "ws://127.0.0.1:8090", ws: true },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: false,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        // build/chunk-groups.ts: the groups, and the check that fails the build when one breaks;
        // then each signed-in first screen's modules in a few chunks (firstScreenChunkName)
        codeSplitting: {
          groups: [
            ...CHUNK_GROUPS.map(({ name, test }) => ({ name, test, priority: 1 })),
            {
              name: firstScreenChunkName(import.meta.dirname, FIRST_SCREEN_ROUTES, GUEST_ROUTES, ["corporate_liason"]),
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}", "build/**/*.test.ts"],
    setupFiles: ["src/testing/setup.ts"],
  },
});
