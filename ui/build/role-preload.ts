// rolePreloads lists, at build time, what each visitor's first screen at / needs beyond the
// entry: for a guest the sign-in screen's chunks, for each role its lazy route chunks (signed-in
// shell, home, the role's dashboard) with their static imports. The boot script
// (boot-script.ts) adds a modulepreload link for each once /api/auth/user answers, so on a
// phone network all of it downloads while the entry is still arriving instead of after it has
// run and rendered (DESIGN.md §10; measured with e2e/scripts/lcp.mjs).

/** FirstScreens is src/app/first-screen.ts's FIRST_SCREENS: per role, its first screen's route modules. */
export type FirstScreens = Record<string, { routes: string[] }>;

type Chunk = { type: "chunk"; fileName: string; facadeModuleId: string | null; imports: string[]; isEntry: boolean; moduleIds?: string[] };

/** Preloads are the files to preload at /: a guest's (the sign-in screen) and each role's. */
export type Preloads = { guest: string[]; roles: Record<string, string[]> };

/** rolePreloads lists what a guest's and each role's first screen loads, from the bundle's chunks. */
export function rolePreloads(
  bundle: Record<string, { type: string }>,
  screens: FirstScreens,
  guestRoutes: string[],
  base = "/",
): Preloads {
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
  const files = (modules: string[]) => {
    const routeChunks = modules.map((m) => {
      const own = (id: string | null | undefined) => !!id?.replaceAll("\\", "/").endsWith(m);
      // its own chunk, or the first screen's chunk that holds it (build/chunk-groups.ts)
      const c = chunks.find((ch) => own(ch.facadeModuleId)) ?? chunks.find((ch) => ch.moduleIds?.some(own));
      if (!c) throw new Error(`role-preload: no chunk for ${m}`);
      return c;
    });
    return [...closure(routeChunks)].filter((f) => !loaded.has(f)).map((f) => base + f);
  };
  const roles: Record<string, string[]> = {};
  for (const [role, screen] of Object.entries(screens)) roles[role] = files(screen.routes);
  return { guest: files(guestRoutes), roles };
}
