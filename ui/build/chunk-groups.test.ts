import { describe, expect, it } from "vitest";
import { CHUNK_GROUPS, checkChunkGroups } from "./chunk-groups";

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
