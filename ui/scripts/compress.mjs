// Precompresses the build for lib/webui (DESIGN.md §10): every text asset, the scanner's wasm and index.html get
// a .br (brotli, best quality) and a .gz (gzip -9) beside it, served by Accept-Encoding.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dist = path.resolve(import.meta.dirname, "..", "dist");
const compressible = /\.(js|mjs|css|html|svg|json|txt|webmanifest|ttf|woff|wasm)$/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

let raw = 0;
let br = 0;
for (const file of files(dist)) {
  if (!compressible.test(file) || file.endsWith(".map")) continue;
  const body = readFileSync(file);
  if (body.length < 256) continue;
  const b = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  writeFileSync(file + ".br", b);
  writeFileSync(file + ".gz", gzipSync(body, { level: 9 }));
  raw += body.length;
  br += b.length;
}
console.log(`compress: ${(raw / 1024).toFixed(1)} KB → ${(br / 1024).toFixed(1)} KB brotli`);
