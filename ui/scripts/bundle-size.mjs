// Measures the initial JavaScript of the sign-in route (/auth) in ui/dist: index.html's entry
// and modulepreloads, plus the lazy /auth route chunk, each with its static imports followed
// transitively. Prints a Markdown table (file, raw bytes, gzip bytes) and the total; writes
// it to ui/BUNDLE.md when called with --write. Usage: node scripts/bundle-size.mjs [--write]
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dist = path.resolve(import.meta.dirname, "../dist");
const html = readFileSync(path.join(dist, "index.html"), "utf8");
const roots = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]);

// Static imports in Vite's minified output: import"./x.js", from"./x.js" (dynamic import() excluded).
function staticImports(file) {
  const code = readFileSync(path.join(dist, "assets", file), "utf8");
  const out = new Set();
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["'`]\.\/([^"'`]+\.js)["'`]/g)) out.add(m[1]);
  return [...out];
}

// The /auth route is the router's lazy import of app/routes/auth (a chunk named auth-*.js),
// which loads the sign-in page (auth-page-*.js): walk every dynamic import of those names.
const entry = roots[0];
const seen = new Set();
const walk = (f) => {
  if (seen.has(f)) return;
  seen.add(f);
  for (const d of staticImports(f)) walk(d);
};
roots.forEach(walk);
const entryCode = readFileSync(path.join(dist, "assets", entry), "utf8");
const authChunks = [...entryCode.matchAll(/import\(["'`]\.\/(auth-[^"'`]+\.js)["'`]\)/g)].map((m) => m[1]);
if (authChunks.length === 0) throw new Error("no lazy auth-*.js chunk found in the entry");
authChunks.forEach(walk);

const rows = [...seen].map((f) => {
  const buf = readFileSync(path.join(dist, "assets", f));
  const br = brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  return { file: f, raw: buf.length, gzip: gzipSync(buf).length, br };
});
rows.sort((a, b) => b.gzip - a.gzip);
const total = rows.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, br: t.br + r.br }), { raw: 0, gzip: 0, br: 0 });
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const table = [
  "| file | raw | gzip | brotli (as served) |",
  "|---|---:|---:|---:|",
  ...rows.map((r) => `| ${r.file} | ${kb(r.raw)} | ${kb(r.gzip)} | ${kb(r.br)} |`),
  `| **total for /auth** | **${kb(total.raw)}** | **${kb(total.gzip)}** | **${kb(total.br)}** |`,
].join("\n");
console.log(table);
if (process.argv.includes("--write")) {
  const doc = `# UI bundle: initial JavaScript of the sign-in route

Measured with \`node scripts/bundle-size.mjs --write\` after \`npm run build\`: index.html's entry
and modulepreloads plus the lazy \`/auth\` route chunk, each with its static imports
(gzip at its default level, as \`gzip -c file | wc -c\`; brotli at quality 11, as the server sends
them precompressed). Budget: 150 KB over the wire. Every other screen, the toasts and each role's
dashboard are lazy chunks loaded when used.

${table}
`;
  writeFileSync(path.resolve(import.meta.dirname, "../BUNDLE.md"), doc);
}
