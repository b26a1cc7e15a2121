// The Vite chunk grouping (vite.config.ts codeSplitting.groups) and its check. A group is
// chosen by a module-path regex, which a dependency upgrade can silently stop matching (a
// file renamed inside a package) or make match too much: the build then fails here, and
// chunk-groups.test.ts runs the check on made-up bundles.
import path from "node:path";

/** ChunkGroup is one group: its chunk's name, the modules it takes, and modules it must hold. */
export type ChunkGroup = { name: string; test: RegExp; mustHold: RegExp[] };

/**
 * CHUNK_GROUPS: the small primitives every screen uses, the sign-in screen included, travel as
 * one chunk instead of a dozen: on a 150 ms round-trip network each request costs more than
 * its bytes (DESIGN.md §10).
 */
export const CHUNK_GROUPS: ChunkGroup[] = [
  {
    name: "ui-kit",
    test: /src[\\/]components[\\/]ui[\\/](input|label|tabs|button)\.tsx|@radix-ui[\\/]react-(tabs|label|roving-focus|collection|direction|id|presence|primitive|use-controllable-state|use-callback-ref|use-layout-effect|compose-refs|context|slot)[\\/]|lucide-react[\\/]dist[\\/]esm[\\/](createLucideIcon|defaultAttributes|Icon|shared|icons[\\/]battery-charging)/,
    mustHold: [
      /src[\\/]components[\\/]ui[\\/]button\.tsx$/,
      /src[\\/]components[\\/]ui[\\/]input\.tsx$/,
      /src[\\/]components[\\/]ui[\\/]tabs\.tsx$/,
      /@radix-ui[\\/]react-tabs[\\/]/,
      /@radix-ui[\\/]react-slot[\\/]/,
      /@radix-ui[\\/]react-primitive[\\/]/,
      /lucide-react[\\/]dist[\\/]esm[\\/]createLucideIcon/,
    ],
  },
];

/** ModuleGraph is what the grouping reads of the module graph (rolldown's ChunkingContext). */
export type ModuleGraph = {
  getModuleInfo(id: string): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[]; code?: string | null } | null;
};

const kebab = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([a-zA-Z])(\d)/g, "$1-$2")
    .toLowerCase();

/**
 * BARRELS are the packages whose index re-exports all of them (every icon, every Radix
 * primitive): the module a named import of theirs reaches, found by its name. A name that maps
 * to no module (an alias) is left to rolldown's automatic chunks.
 */
const BARRELS: Record<string, { index: RegExp; module: (name: string) => string }> = {
  "lucide-react": {
    index: /node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/](lucide-react|icons[\\/]index)\.mjs$/,
    module: (name) => `node_modules/lucide-react/dist/esm/icons/${kebab(name.replace(/Icon$/, ""))}.mjs`,
  },
  "radix-ui": {
    index: /node_modules[\\/]radix-ui[\\/]dist[\\/]index\.mjs$/,
    module: (name) => `node_modules/@radix-ui/react-${kebab(name)}/dist/index.mjs`,
  },
};

/**
 * firstScreenChunkName names, for the module id, the one chunk it travels in when it belongs
 * to a signed-in first screen at / (app/first-screen-routes.ts, the list the boot script
 * preloads): "first-shell" for what more than one role's first screen loads (the signed-in
 * shell and home among them), "first-<role>" for what only that role's loads; null for the
 * rest (the entry and the screens after the first keep rolldown's automatic chunks). Without it
 * the driver's home arrived as some 60 chunks of 0.5 to 14 KB, and on a 150 ms round-trip
 * phone network their requests, six at a time, took longer than their bytes (DESIGN.md §10).
 * The static imports of each route module are followed, not its dynamic ones: what the first
 * screen loads later (a dialog, the camera) stays in its own chunk. The packages a route uses
 * alone (its icons) stay in the route's own chunk, which the first screen's chunk then imports
 * from while the route imports from it: a module of such a chunk must not read another's
 * exports while it runs (a constant holding an icon did, on the liaison's screen, which is
 * left out: `without`).
 */
export function firstScreenChunkName(
  root: string,
  routes: Record<string, string[]>,
  guest: string[],
  without: string[] = [],
  entry = "src/main.tsx",
): (id: string, graph: ModuleGraph) => string | null {
  const src = path.resolve(root, "src") + path.sep;
  const barrels = Object.values(BARRELS).map((b) => b.index);
  const fromBarrels = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["'](${Object.keys(BARRELS).join("|")})["']`, "g");
  let groupOf: Map<string, string> | undefined;
  const build = (graph: ModuleGraph) => {
    // a package's index re-exports all of it (radix-ui, lucide-react): it is not followed, the
    // modules an app module names from it are, so that the entry is not said to hold what it
    // never bundles
    const named = (code: string) =>
      [...code.matchAll(fromBarrels)].flatMap(([, names, pkg]) =>
        names!
          .split(",")
          .map((n) => n.trim().split(/\s+as\s+/)[0]!)
          .filter(Boolean)
          .map((n) => path.resolve(root, BARRELS[pkg!]!.module(n))),
      );
    const closure = (starts: string[], skip = new Set<string>()) => {
      const seen = new Set<string>();
      const stack = starts.map((s) => path.resolve(root, s));
      while (stack.length > 0) {
        const id = stack.pop()!;
        if (seen.has(id) || skip.has(id) || barrels.some((b) => b.test(id))) continue;
        const info = graph.getModuleInfo(id);
        if (!info) continue;
        seen.add(id);
        stack.push(...info.importedIds);
        if (id.startsWith(src) && info.code) stack.push(...named(info.code));
      }
      return seen;
    };
    // what the entry or the sign-in screen loads stays out, and what the sign-in screen loads
    // later (the outbox's store, the terms): a guest never loads a first-* chunk
    const inEntry = closure([entry]);
    const signIn = closure(guest, inEntry);
    const later = [...signIn].flatMap((id) => graph.getModuleInfo(id)?.dynamicallyImportedIds ?? []);
    const skip = new Set([...inEntry, ...signIn, ...closure(later, inEntry)]);
    // roles with the same first screen (admin, master_admin) count once
    const screens = new Map<string, string>();
    for (const [role, list] of Object.entries(routes)) {
      if (without.includes(role)) continue;
      const key = list.join("\n");
      if (!screens.has(key)) screens.set(key, role.replaceAll("_", "-"));
    }
    const users = new Map<string, Set<string>>();
    for (const [key, name] of screens) {
      for (const id of closure(key.split("\n"), skip)) {
        if (!users.has(id)) users.set(id, new Set());
        users.get(id)!.add(name);
      }
    }
    groupOf = new Map([...users].map(([id, names]) => [id, names.size > 1 ? "first-shell" : `first-${[...names][0]}`]));
  };
  return (id, graph) => {
    if (!groupOf) build(graph);
    return groupOf!.get(id) ?? null;
  };
}

type Chunk = { type: "chunk"; name: string; fileName: string; moduleIds: string[] };

/** checkChunkGroups returns what is wrong with bundle's grouping ([] when nothing). */
export function checkChunkGroups(bundle: Record<string, { type: string }>, groups: ChunkGroup[] = CHUNK_GROUPS): string[] {
  const chunks = Object.values(bundle).filter((c): c is Chunk => c.type === "chunk");
  const problems: string[] = [];
  for (const g of groups) {
    const own = chunks.filter((c) => c.name === g.name);
    if (own.length !== 1) {
      problems.push(`chunk group ${g.name}: ${own.length} chunks named so, want 1`);
      continue;
    }
    const held = own[0].moduleIds.map((m) => m.replaceAll("\\", "/"));
    for (const want of g.mustHold) {
      if (!held.some((m) => want.test(m))) problems.push(`chunk group ${g.name}: no module matches ${want} (renamed by an upgrade?)`);
    }
    for (const c of chunks) {
      if (c === own[0]) continue;
      for (const m of c.moduleIds) {
        if (g.test.test(m)) problems.push(`chunk group ${g.name}: ${m} landed in ${c.fileName}`);
      }
    }
  }
  return problems;
}

/** chunkGroupsCheck is the Vite plugin failing the build when checkChunkGroups finds a problem. */
export function chunkGroupsCheck() {
  return {
    name: "swapbay-chunk-groups-check",
    apply: "build" as const,
    generateBundle(this: { error: (msg: string) => never }, _options: unknown, bundle: Record<string, { type: string }>) {
      const problems = checkChunkGroups(bundle);
      if (problems.length > 0) this.error(problems.join("\n"));
    },
  };
}
