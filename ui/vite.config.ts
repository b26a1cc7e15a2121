/// <reference types="vitest/config" />
import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { bootScriptPlugin } from "./build/boot-script.ts";
import { CHUNK_GROUPS, chunkGroupsCheck } from "./build/chunk-groups.ts";

// The Go binary embeds ui/dist (ui/embed.go); dist/.keep must survive a build so that
// `go build` works on a fresh clone, hence emptyOutDir is off and the build script
// removes only the old assets.
export default defineConfig({
  plugins: [react(), tailwindcss(), bootScriptPlugin(), chunkGroupsCheck()],
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
        // build/chunk-groups.ts: the groups, and the check that fails the build when one breaks
        codeSplitting: { groups: CHUNK_GROUPS.map(({ name, test }) => ({ name, test })) },
      },
    },
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}", "build/**/*.test.ts"],
    setupFiles: ["src/testing/setup.ts"],
  },
});
