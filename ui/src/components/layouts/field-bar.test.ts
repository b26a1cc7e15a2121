// @vitest-environment node
import { afterEach, describe, expect, it } from "vitest";
import { offlineBanner } from "@/components/layouts/field-bar";
import { setTimeZone } from "@/lib/format";

afterEach(() => setTimeZone(undefined));

describe("the field bar's times are in the operation's time zone, not the phone's", () => {
  it("the offline banner", () => {
    setTimeZone("UTC");
    expect(offlineBanner(Date.parse("2026-11-25T14:32:00Z"))).toBe("Offline — figures from 2:32 PM");
    setTimeZone("Asia/Tokyo");
    expect(offlineBanner(Date.parse("2026-11-25T14:32:00Z"))).toBe("Offline — figures from 11:32 PM");
    expect(offlineBanner(null)).toBe("Offline");
  });
});
