// bootScript writes index.html's one inline script at build time (issue 26): on every path it
// asks for the session while the app's JavaScript downloads; on / it then, for a guest, adds a
// modulepreload link for each sign-in chunk, and for an approved user with nothing to sign
// starts their first screen's calls (their answers wait in window.__boot for
// lib/api-client.ts getJSON) and preloads its chunks. What each visitor needs comes from
// src/app/first-screen.ts (the features' own query definitions) and the bundle's chunks
// (role-preload.ts). The script's CSP hash is written beside the dist (boot-script.sha256),
// where the Go server reads it (ui.BootScriptHash): nothing to keep in step by hand.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { type Plugin, runnerImport } from "vite";
import { type BootData, bootScript } from "./boot-script-source.ts";
import { rolePreloads } from "./role-preload.ts";

/** BOOT_HASH_FILE is the file beside index.html holding the script's CSP source (ui/embed.go BootScriptFile). */
export const BOOT_HASH_FILE = "boot-script.sha256";

/** cspHash is the CSP source allowing an inline script with this exact text. */
export function cspHash(script: string): string {
  return "sha256-" + createHash("sha256").update(script).digest("base64");
}

type FirstScreenModule = { SESSION_URL: string; GUEST_ROUTES: string[]; FIRST_SCREENS: Record<string, { routes: string[]; api: string[] }> };

/** bootScriptPlugin injects the script into index.html (dev and build) and, on build, writes its hash. */
export function bootScriptPlugin(): Plugin {
  let base = "/";
  let root = "";
  let outDir = "";
  let hash = "";
  let mod: FirstScreenModule | undefined;
  const firstScreens = async () => {
    mod ??= (
      await runnerImport<FirstScreenModule>("/src/app/first-screen.ts", {
        root,
        configFile: false,
        logLevel: "error",
        resolve: { alias: { "@": path.resolve(root, "src") } },
      })
    ).module;
    return mod;
  };
  return {
    name: "swapbay-boot-script",
    configResolved(config) {
      base = config.base;
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    transformIndexHtml: {
      order: "post",
      async handler(_html, ctx) {
        const fs = await firstScreens();
        // in dev there is no bundle: the calls only, the dev server serves modules as asked
        const preloads = ctx.bundle ? rolePreloads(ctx.bundle, fs.FIRST_SCREENS, fs.GUEST_ROUTES, base) : undefined;
        const data: BootData = {
          session: fs.SESSION_URL,
          guest: preloads?.guest ?? [],
          roles: Object.fromEntries(
            Object.entries(fs.FIRST_SCREENS).map(([role, s]) => [role, { api: s.api, js: preloads?.roles[role] ?? [] }]),
          ),
        };
        const script = bootScript(data);
        hash = cspHash(script);
        return [{ tag: "script", children: script, injectTo: "head-prepend" }];
      },
    },
    closeBundle() {
      if (hash) writeFileSync(path.join(outDir, BOOT_HASH_FILE), hash + "\n");
    },
  };
}
