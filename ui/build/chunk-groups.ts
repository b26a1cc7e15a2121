// The Vite chunk grouping (vite.config.ts codeSplitting.groups) and its check. A group is
// chosen by a module-path regex, which a dependency upgrade can silently stop matching (a
// file renamed inside a package) or make match too much: the build then fails here, and
// chunk-groups.test.ts runs the check on made-up bundles.

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
