/**
 * newIdempotencyKey returns a fresh key for one confirmed user action. Send it as the
 * Idempotency-Key header (apiRequest's `idempotencyKey` option): the server answers a repeat
 * with the first answer and changes nothing (DESIGN §5). The key is a UUIDv7: its first 48 bits
 * are the time it was minted (Unix milliseconds), so the server knows its age even after it
 * has forgotten the answer, and refuses a key older than it keeps keys (`key_expired`, 8 days)
 * instead of recording the action twice.
 */
export function newIdempotencyKey(now: number = Date.now()): string {
  // crypto.getRandomValues works outside secure contexts too (plain-http LAN installs).
  const b = crypto.getRandomValues(new Uint8Array(16));
  let ms = now;
  for (let i = 5; i >= 0; i--) {
    b[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
