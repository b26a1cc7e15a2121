// @vitest-environment node
import { describe, expect, it } from "vitest";

import { newIdempotencyKey } from "@/lib/idempotency";

describe("newIdempotencyKey", () => {
  it("mints a UUIDv7 whose first 48 bits are the time it was minted", () => {
    const at = Date.UTC(2026, 10, 25, 18, 55, 57, 123);
    const key = newIdempotencyKey(at);
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(key.slice(0, 8) + key.slice(9, 13), 16)).toBe(at);
  });

  it("mints a different key each time", () => {
    const at = Date.now();
    expect(newIdempotencyKey(at)).not.toBe(newIdempotencyKey(at));
  });
});
