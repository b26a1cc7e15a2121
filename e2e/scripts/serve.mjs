// Playwright's webServer command: prepares a fresh data dir (superuser for the fixtures,
// an approved admin via `swapbay user create`) and then runs `swapbay serve` on it.
// Playwright starts webServer before globalSetup, so the preparation lives here.
import { spawn, execFileSync } from "node:child_process";

const [binary, dir, http] = process.argv.slice(2);
const env = process.env;
const run = (...args) => execFileSync(binary, [...args, `--dir=${dir}`], { stdio: ["ignore", "pipe", "inherit"] });

run("superuser", "upsert", env.E2E_SUPERUSER_EMAIL, env.E2E_SUPERUSER_PASSWORD);
const id = run(
  "user",
  "create",
  `--email=${env.E2E_ADMIN_EMAIL}`,
  `--password=${env.E2E_ADMIN_PASSWORD}`,
  "--role=admin",
  `--first=${env.E2E_ADMIN_FIRST}`,
  `--last=${env.E2E_ADMIN_LAST}`,
)
  .toString()
  .trim();
console.log(`e2e: admin ${id} in ${dir}`);

const server = spawn(binary, ["serve", `--http=${http}`, `--dir=${dir}`], { stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.kill(sig));
server.on("exit", (code) => process.exit(code ?? 0));
