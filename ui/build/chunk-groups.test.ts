// @vitest-environment node
import { describe, expect, it } from "vitest";
import { CHUNK_GROUPS, type ModuleGraph, checkChunkGroups, firstScreenChunkName } from "./chunk-groups";

const chunk = (fileName: string, name: string, moduleIds: string[]) => ({ type: "chunk", fileName, name, moduleIds });

// what the ui-kit group holds today (a few of its modules)
const kit = [
  "/app/src/components/ui/button.tsx",
  "/app/src/components/ui/input.tsx",
  "/app/src/components/ui/tabs.tsx",
  "/app/node_modules/@radix-ui/react-tabs/dist/index.mjs",
  "/app/node_modules/@radix-ui/react-slot/dist/index.mjs",
  "/app/node_modules/@radix-ui/react-primitive/dist/index.mjs",
  "/app/node_modules/lucide-react/dist/esm/createLucideIcon.js",
];

function bundle(kitModules = kit, other: string[] = ["/app/src/main.tsx"]) {
  const chunks = [chunk("assets/ui-kit-x.js", "ui-kit", kitModules), chunk("assets/index-x.js", "index", other)];
  return Object.fromEntries(chunks.map((c) => [c.fileName, c]));
}

describe("checkChunkGroups", () => {
  it("passes the grouping as built", () => {
    expect(checkChunkGroups(bundle())).toEqual([]);
  });

  it("fails when the group's chunk is missing (the test matches nothing after an upgrade)", () => {
    const b = bundle();
    delete b["assets/ui-kit-x.js"];
    expect(checkChunkGroups(b)).toEqual(["chunk group ui-kit: 0 chunks named so, want 1"]);
  });

  it("fails when a module it must hold went elsewhere (a file renamed inside a package)", () => {
    const problems = checkChunkGroups(bundle(kit.filter((m) => !m.includes("react-tabs"))));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/react-tabs/);
  });

  it("fails when a module of the group landed in another chunk", () => {
    const problems = checkChunkGroups(bundle(kit, ["/app/src/main.tsx", "/app/node_modules/@radix-ui/react-label/dist/index.mjs"]));
    expect(problems).toEqual(["chunk group ui-kit: /app/node_modules/@radix-ui/react-label/dist/index.mjs landed in assets/index-x.js"]);
  });

  it("is the grouping vite.config.ts builds with", () => {
    expect(CHUNK_GROUPS.map((g) => g.name)).toEqual(["ui-kit"]);
  });
});

describe("firstScreenChunkName", () => {
  // a made-up app: the entry, the sign-in screen, a shell and two roles' homes
  const imports: Record<string, { importedIds: string[]; dynamicallyImportedIds?: string[] }> = {
    "/app/src/main.tsx": { importedIds: ["/app/src/lib/api.ts", "/app/node_modules/react/index.js"] },
    "/app/src/auth-page.tsx": { importedIds: ["/app/src/lib/api.ts", "/app/src/form.tsx"], dynamicallyImportedIds: ["/app/src/outbox-db.ts"] },
    "/app/src/form.tsx": { importedIds: [] },
    "/app/src/outbox-db.ts": { importedIds: [] },
    "/app/src/shell.tsx": { importedIds: ["/app/src/header.tsx", "/app/src/outbox-db.ts", "/app/node_modules/radix/index.js"] },
    "/app/src/header.tsx": { importedIds: ["/app/src/lib/api.ts"] },
    "/app/src/home-driver.tsx": { importedIds: ["/app/src/figures.tsx", "/app/src/form.tsx"], dynamicallyImportedIds: ["/app/src/camera.tsx"] },
    "/app/src/home-admin.tsx": { importedIds: ["/app/src/figures.tsx", "/app/src/table.tsx"] },
    "/app/src/figures.tsx": { importedIds: [] },
    "/app/src/table.tsx": { importedIds: [] },
    "/app/src/camera.tsx": { importedIds: [] },
  };
  const graph: ModuleGraph = {
    getModuleInfo: (id) => (imports[id] ? { importedIds: imports[id].importedIds, dynamicallyImportedIds: imports[id].dynamicallyImportedIds ?? [] } : null),
  };
  const name = firstScreenChunkName(
    "/app",
    { admin: ["src/shell.tsx", "src/home-admin.tsx"], master_admin: ["src/shell.tsx", "src/home-admin.tsx"], driver: ["src/shell.tsx", "src/home-driver.tsx"] },
    ["src/auth-page.tsx"],
  );
  const groups = Object.fromEntries(Object.keys(imports).map((id) => [id.replace("/app/", ""), name(id, graph)]));

  it("puts what more than one role's first screen loads in first-shell, the rest in the role's chunk", () => {
    expect(groups["src/shell.tsx"]).toBe("first-shell");
    expect(groups["src/header.tsx"]).toBe("first-shell");
    expect(groups["src/figures.tsx"]).toBe("first-shell");
    expect(groups["src/home-driver.tsx"]).toBe("first-driver");
    expect(groups["src/home-admin.tsx"]).toBe("first-admin");
    expect(groups["src/table.tsx"]).toBe("first-admin");
  });

  it("follows the icons and Radix primitives a module names from their packages' index, not the index", () => {
    const withBarrels: ModuleGraph = {
      getModuleInfo: (id) =>
        ({
          "/app/src/main.tsx": { importedIds: ["/app/node_modules/lucide-react/dist/esm/lucide-react.mjs"], dynamicallyImportedIds: [], code: 'import { InboxIcon } from "lucide-react";' },
          "/app/src/home.tsx": {
            importedIds: ["/app/node_modules/lucide-react/dist/esm/lucide-react.mjs", "/app/node_modules/radix-ui/dist/index.mjs"],
            dynamicallyImportedIds: [],
            code: 'import { ChevronRightIcon, InboxIcon as Box } from "lucide-react";\nimport { DropdownMenu as Menu } from "radix-ui";',
          },
          "/app/node_modules/lucide-react/dist/esm/lucide-react.mjs": { importedIds: ["/app/node_modules/lucide-react/dist/esm/icons/truck.mjs"], dynamicallyImportedIds: [] },
          "/app/node_modules/lucide-react/dist/esm/icons/chevron-right.mjs": { importedIds: [], dynamicallyImportedIds: [] },
          "/app/node_modules/lucide-react/dist/esm/icons/inbox.mjs": { importedIds: [], dynamicallyImportedIds: [] },
          "/app/node_modules/lucide-react/dist/esm/icons/truck.mjs": { importedIds: [], dynamicallyImportedIds: [] },
          "/app/node_modules/@radix-ui/react-dropdown-menu/dist/index.mjs": { importedIds: ["/app/node_modules/@radix-ui/react-menu/dist/index.mjs"], dynamicallyImportedIds: [] },
          "/app/node_modules/@radix-ui/react-menu/dist/index.mjs": { importedIds: [], dynamicallyImportedIds: [] },
        })[id] ?? null,
    };
    const of = firstScreenChunkName("/app", { driver: ["src/home.tsx"] }, []);
    const icons = "/app/node_modules/lucide-react/dist/esm/icons/";
    expect(of(`${icons}chevron-right.mjs`, withBarrels)).toBe("first-driver");
    expect(of("/app/node_modules/@radix-ui/react-dropdown-menu/dist/index.mjs", withBarrels)).toBe("first-driver");
    expect(of("/app/node_modules/@radix-ui/react-menu/dist/index.mjs", withBarrels)).toBe("first-driver");
    // the entry's icon stays with the entry; the index and what only it re-exports, nowhere
    expect(of(`${icons}inbox.mjs`, withBarrels)).toBeNull();
    expect(of(`${icons}truck.mjs`, withBarrels)).toBeNull();
    expect(of("/app/node_modules/lucide-react/dist/esm/lucide-react.mjs", withBarrels)).toBeNull();
  });

  it("leaves out the entry's and the sign-in screen's modules, what that screen loads later, packages and lazy chunks", () => {
    for (const m of ["src/main.tsx", "src/lib/api.ts", "src/auth-page.tsx", "src/form.tsx", "src/outbox-db.ts", "src/camera.tsx"]) expect(name(`/app/${m}`, graph), m).toBeNull();
    expect(name("/app/node_modules/radix/index.js", graph)).toBeNull();
  });
});
