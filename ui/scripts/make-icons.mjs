// Draws the app icons (ui/public/icons/*.png) without an image library: a green square with a
// white battery, as 192 and 512 px "any" icons and a 512 px maskable one (the battery inside
// the 80% safe zone). Run `node scripts/make-icons.mjs` after changing the drawing; the PNGs
// are committed so a build needs no rasteriser.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";

const GREEN = [22, 163, 74];
const WHITE = [255, 255, 255];

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

function png(size, pixel) {
  const raw = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 3 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const [r, g, b] = pixel(x / size, y / size);
      const o = y * (size * 3 + 1) + 1 + x * 3;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** battery draws a battery of scale s (1 = fills the icon) centred, in unit coordinates. */
function battery(s) {
  const inside = (x, y, x0, y0, x1, y1) => x >= x0 && x < x1 && y >= y0 && y < y1;
  const c = (v) => 0.5 + (v - 0.5) * s;
  return (x, y) => {
    const body = inside(x, y, c(0.22), c(0.3), c(0.74), c(0.7));
    const hole = inside(x, y, c(0.27), c(0.36), c(0.69), c(0.64));
    const cap = inside(x, y, c(0.74), c(0.42), c(0.8), c(0.58));
    const charge = inside(x, y, c(0.31), c(0.4), c(0.56), c(0.6));
    return (body && !hole) || cap || charge ? WHITE : GREEN;
  };
}

const dir = path.resolve(import.meta.dirname, "..", "public", "icons");
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "icon-192.png"), png(192, battery(1)));
writeFileSync(path.join(dir, "icon-512.png"), png(512, battery(1)));
writeFileSync(path.join(dir, "icon-maskable-512.png"), png(512, battery(0.75)));
console.log("icons written to", dir);
