// ESLint flat config. Besides the usual TypeScript and hooks rules it enforces the
// bulletproof-react direction of imports: shared code (components, hooks, lib, config,
// utils, types) → features → app. Features never import each other.
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import importPlugin from "eslint-plugin-import";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Every folder under src/features is a feature; a new one is picked up without editing this file.
const features = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

// Besides the router's route `lazy`, a component is loaded lazily one way: a Loadable, which
// renders a chunk that is already in at once (React.lazy suspends a tick and Suspense then
// holds the content back up to 300 ms).
const LAZY = "Use loadable() with <Lazy> or useLoadable from @/lib/loadable, not React.lazy (lib/loadable.tsx says why).";
const lazyRules = [
  { selector: "ImportDeclaration[source.value='react'] > ImportSpecifier[imported.name='lazy']", message: LAZY },
  { selector: "MemberExpression[object.name='React'][property.name='lazy']", message: LAZY },
];

// A write refreshes the screens one way (STYLE "one mechanism per concern"): it names what it
// changed with afterWrite / invalidate (lib/invalidation.ts) and each query says in its
// meta.staleOn what makes it stale. Only lib/invalidation.ts calls the query client's refetches.
const REFRESH =
  "Refresh through afterWrite(qc, change, answer) or invalidate(qc, change) from @/lib/invalidation, and declare the change in the query's meta.staleOn.";
const refreshRule = { selector: "CallExpression[callee.property.name=/^(invalidateQueries|refetchQueries|resetQueries)$/]", message: REFRESH };

export default tseslint.config(
  { ignores: ["dist", "node_modules"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks, import: importPlugin },
    settings: {
      "import/resolver": { typescript: { project: "./tsconfig.app.json" } },
    },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "import/no-cycle": "error",
      // one zod flavour: zod/mini (lib/count.ts says why); one lazy component: lib/loadable.tsx
      "no-restricted-imports": ["error", { paths: [{ name: "zod", message: 'Use zod/mini: import * as z from "zod/mini".' }] }],
      "no-restricted-syntax": ["error", ...lazyRules, refreshRule],
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            // no imports between features: every feature folder may only be entered from app/
            // except the scanner's public face (features/scan/index.ts: the pack scan field every
            // battery-moving screen puts in its form), the outbox's engine and hooks
            // (features/outbox/api, hooks: a feature declares its driver actions there and submits
            // them through it; the queue sheet is the app's) and, for the scanner, the packs list
            // query it completes typed serials from
            ...features.map((f) => ({
              target: `./src/features/${f}`,
              from: "./src/features",
              except: [`./${f}`, "./scan/index.ts", "./outbox/api", "./outbox/hooks", ...(f === "scan" ? ["./packs/api/get-packs.ts"] : [])],
              message: "Features must not import each other; lift shared code to components/, hooks/ or lib/.",
            })),
            // features never import the app layer
            { target: "./src/features", from: "./src/app", message: "Features must not import app/." },
            // shared layers import neither features nor app
            {
              target: ["./src/components", "./src/hooks", "./src/lib", "./src/config", "./src/utils", "./src/types"],
              from: ["./src/features", "./src/app"],
              message: "Shared code must not import features or app/.",
            },
          ],
        },
      ],
    },
  },
  {
    // the one place that turns a change into the query client's refetches
    files: ["src/lib/invalidation.ts"],
    rules: { "no-restricted-syntax": ["error", ...lazyRules] },
  },
  {
    files: ["vite.config.ts", "vite.hq.config.ts", "eslint.config.js", "scripts/**/*.mjs"],
    languageOptions: { globals: { ...globals.node } },
  },
);
