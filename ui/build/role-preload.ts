// rolePreload writes into index.html, at build time, what each role's first screen at /
// needs beyond the entry: the lazy route chunks (signed-in shell, home, the role's dashboard)
// with their static imports, and the dashboard's own API calls. The inline boot script
// (index.html) reads the list once /api/auth/user answers: it starts those calls (their
// answers wait in window.__boot for lib/api-client.ts) and adds a modulepreload link for each
// file, so on a phone network all of it downloads while the entry is still arriving instead
// of after it has run and rendered (DESIGN.md §10; measured with e2e/scripts/lcp-trace.mjs).
import type { Plugin } from "vite";

/** FirstScreen is what a role's first screen at / loads after the entry. */
type FirstScreen = { routes: string[]; api: string[] };

const adminFirstScreen: FirstScreen = {
  routes: ["src/app/routes/signed-in.tsx", "src/app/routes/home.tsx", "src/app/routes/home-admin.tsx"],
  // the admin dashboard's first calls (home-admin.tsx): charging sessions, recent activity and
  // the weekly activity's summary (adminWeeklyActivityUrl(0), a few KB). Not the full weekly
  // activity: in a busy week its activity lists are over 100 KB compressed, and fetched this
  // early they held the phone network while the JavaScript downloaded (LCP 2.58 s on make
  // bench's main data set); the dashboard no longer asks for them (a card asks when opened)
  api: ["/api/admin/charging-sessions", "/api/admin/recent-activity", "/api/admin/weekly-activity?activities=none"],
};

/** FIRST_SCREENS lists, per role, the route modules and API calls of its first screen at /. */
export const FIRST_SCREENS: Record<string, FirstScreen> = {
  admin: adminFirstScreen,
  master_admin: adminFirstScreen,
  driver: { routes: ["src/app/routes/signed-in.tsx", "src/app/routes/home.tsx", "src/app/routes/home-driver.tsx"], api: [] },
  corporate_liason: { routes: ["src/app/routes/signed-in.tsx", "src/app/routes/home.tsx", "src/app/routes/liaison.tsx"], api: [] },
};

/** PRELOAD_ELEMENT_ID is the id of the JSON script element the boot script reads. */
export const PRELOAD_ELEMENT_ID = "role-preload";

type Chunk = { type: "chunk"; fileName: string; facadeModuleId: string | null; imports: string[]; isEntry: boolean };

/** Preload is a role's entry in the list: the API calls to start and the files to preload. */
export type Preload = { api: string[]; js: string[] };

/** rolePreloads maps each role to what its first screen loads, from the bundle's chunks. */
export function rolePreloads(bundle: Record<string, { type: string }>, base = "/"): Record<string, Preload> {
  const chunks = Object.values(bundle).filter((c): c is Chunk => c.type === "chunk");
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  // breadth first from each start in turn: a route's own chunk, then what it imports, in
  // the order the screen needs them (the browser fetches preloads in the order they appear)
  const closure = (start: Chunk[]) => {
    const into = new Set<string>();
    for (const s of start) {
      const queue = [s];
      while (queue.length > 0) {
        const c = queue.shift()!;
        if (into.has(c.fileName)) continue;
        into.add(c.fileName);
        for (const f of c.imports) {
          const dep = byFile.get(f);
          if (dep) queue.push(dep);
        }
      }
    }
    return into;
  };
  // the entry and its static imports are already in index.html
  const loaded = closure(chunks.filter((c) => c.isEntry));
  const out: Record<string, Preload> = {};
  for (const [role, screen] of Object.entries(FIRST_SCREENS)) {
    const routeChunks = screen.routes.map((m) => {
      const c = chunks.find((ch) => ch.facadeModuleId?.replaceAll("\\", "/").endsWith(m));
      if (!c) throw new Error(`role-preload: no chunk for ${m}`);
      return c;
    });
    const files = [...closure(routeChunks)].filter((f) => !loaded.has(f));
    out[role] = { api: screen.api, js: files.map((f) => base + f) };
  }
  return out;
}

/** rolePreload is the Vite plugin (build only). */
export function rolePreload(): Plugin {
  let base = "/";
  return {
    name: "swapbay-role-preload",
    apply: "build",
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: "post",
      handler(_html, ctx) {
        if (!ctx.bundle) return;
        return [
          {
            tag: "script",
            attrs: { type: "application/json", id: PRELOAD_ELEMENT_ID },
            children: JSON.stringify(rolePreloads(ctx.bundle, base)),
            injectTo: "head-prepend",
          },
        ];
      },
    },
  };
}
