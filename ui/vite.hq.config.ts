// Head office's page (hq.html → src/hq/main.tsx, served by `swapbay hq serve`: modules/hq/ui.go),
// built after the city's (package.json "build") into the same dist: the city's components,
// lib and styles, compiled a second time into head office's own chunks (assets/hq-*). A second
// input of the city's build would share chunks with it and so change the city's first screen
// (its boot script's preloads, DESIGN.md §10); this build leaves the city's files as they were.
// No boot script, no service worker: head office waits for its own session call.
import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "src") } },
  server: { proxy: { "/api": { target: "http://127.0.0.1:8171", changeOrigin: false } } },
  build: {
    outDir: "dist",
    emptyOutDir: false,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      input: { hq: path.resolve(import.meta.dirname, "hq.html") },
      output: {
        entryFileNames: "assets/hq-[name]-[hash].js",
        chunkFileNames: "assets/hq-[name]-[hash].js",
        assetFileNames: "assets/hq-[name]-[hash][extname]",
      },
    },
  },
});
