// @vitest-environment node
import { describe, expect, it } from "vitest";
import { type FirstScreens, rolePreloads as preloadsOf } from "./role-preload";

const shell = ["src/app/routes/signed-in.tsx", "src/app/routes/home.tsx"];
const admin = { routes: [...shell, "src/app/routes/home-admin.tsx"] };
const SCREENS: FirstScreens = {
  admin,
  master_admin: admin,
  driver: { routes: [...shell, "src/app/routes/home-driver.tsx"] },
  corporate_liason: { routes: [...shell, "src/app/routes/liaison.tsx"] },
};
const GUEST = ["src/features/auth/components/auth-page.tsx"];
const rolePreloads = (b: Record<string, { type: string }>, base?: string) => preloadsOf(b, SCREENS, GUEST, base);

type FakeChunk = { type: "chunk"; fileName: string; facadeModuleId: string | null; imports: string[]; isEntry: boolean; moduleIds?: string[] };

const chunk = (fileName: string, imports: string[] = [], facade: string | null = null, isEntry = false): FakeChunk => ({
  type: "chunk",
  fileName,
  facadeModuleId: facade,
  imports,
  isEntry,
});

// a bundle with every route the first screens name, sharing a shell and the entry's own chunks
function bundle(): Record<string, { type: string }> {
  const chunks = [
    chunk("assets/index.js", ["assets/react.js"], "/app/src/main.tsx", true),
    chunk("assets/react.js"),
    chunk("assets/signed-in.js", ["assets/shell.js", "assets/react.js"], "/app/src/app/routes/signed-in.tsx"),
    chunk("assets/shell.js", ["assets/icons.js"]),
    chunk("assets/icons.js"),
    chunk("assets/home.js", ["assets/react.js"], "/app/src/app/routes/home.tsx"),
    chunk("assets/home-admin.js", ["assets/table.js", "assets/icons.js"], "/app/src/app/routes/home-admin.tsx"),
    chunk("assets/table.js"),
    chunk("assets/home-driver.js", [], "/app/src/app/routes/home-driver.tsx"),
    chunk("assets/liaison.js", ["assets/table.js"], "/app/src/app/routes/liaison.tsx"),
    chunk("assets/auth-page.js", ["assets/form.js", "assets/react.js"], "/app/src/features/auth/components/auth-page.tsx"),
    chunk("assets/form.js"),
    chunk("assets/terms-editor.js", ["assets/tiptap.js"], "/app/src/app/routes/admin-system.tsx"),
    chunk("assets/tiptap.js"),
  ];
  return Object.fromEntries([...chunks.map((c) => [c.fileName, c]), ["assets/index.css", { type: "asset" }]]);
}

describe("rolePreloads", () => {
  it("lists each role's route chunks in the order the screen needs them, with what they import", () => {
    const out = rolePreloads(bundle());
    expect(out.roles.admin).toEqual([
      "/assets/signed-in.js",
      "/assets/shell.js",
      "/assets/icons.js",
      "/assets/home.js",
      "/assets/home-admin.js",
      "/assets/table.js",
    ]);
    expect(out.roles.driver).toEqual(["/assets/signed-in.js", "/assets/shell.js", "/assets/icons.js", "/assets/home.js", "/assets/home-driver.js"]);
    expect(out.roles.master_admin).toEqual(out.roles.admin);
    // a guest at /: the sign-in screen, never the signed-in shell
    expect(out.guest).toEqual(["/assets/auth-page.js", "/assets/form.js"]);
  });

  it("leaves out what the entry already loads and what the first screen does not use", () => {
    const out = rolePreloads(bundle());
    for (const js of [...Object.values(out.roles), out.guest]) {
      expect(js).not.toContain("/assets/index.js");
      expect(js).not.toContain("/assets/react.js");
      expect(js).not.toContain("/assets/tiptap.js");
    }
  });

  it("carries the base path", () => {
    const out = rolePreloads(bundle(), "/app/");
    expect(out.roles.admin[0]).toBe("/app/assets/signed-in.js");
    expect(out.guest[0]).toBe("/app/assets/auth-page.js");
  });

  it("finds a route module inside a first screen's chunk (build/chunk-groups.ts) when it has none of its own", () => {
    const b = bundle();
    delete b["assets/home-driver.js"];
    b["assets/first-driver.js"] = { ...chunk("assets/first-driver.js", ["assets/icons.js"]), moduleIds: ["/app/src/app/routes/home-driver.tsx"] } as FakeChunk;
    expect(rolePreloads(b).roles.driver).toEqual(["/assets/signed-in.js", "/assets/shell.js", "/assets/icons.js", "/assets/home.js", "/assets/first-driver.js"]);
  });

  it("fails the build when a route named for a first screen has no chunk", () => {
    const b = bundle();
    delete b["assets/home-driver.js"];
    expect(() => rolePreloads(b)).toThrow(/home-driver/);
  });
});
