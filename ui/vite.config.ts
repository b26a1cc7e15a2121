/// <reference types="vitest/config" />
import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { rolePreload } from "./build/role-preload.ts";

// The Go binary embeds ui/dist (ui/embed.go); dist/.keep must survive a build so that
// `go build` works on a fresh clone, hence emptyOutDir is off and the build script
// removes only the old assets.
export default defineConfig({
  plugins: [react(), tailwindcss(), rolePreload()],
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
        // The small primitives every screen uses, the sign-in screen included, travel as one
        // chunk instead of a dozen: on a 150 ms round-trip network each request costs more
        // than its bytes (DESIGN.md §10).
        codeSplitting: {
          groups: [
            {
              name: "ui-kit",
              test: /src[\\/]components[\\/]ui[\\/](input|label|tabs|button)\.tsx|@radix-ui[\\/]react-(tabs|label|roving-focus|collection|direction|id|presence|primitive|use-controllable-state|use-callback-ref|use-layout-effect|compose-refs|context|slot)[\\/]|lucide-react[\\/]dist[\\/]esm[\\/](createLucideIcon|defaultAttributes|Icon|shared|icons[\\/]battery-charging)/,
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
