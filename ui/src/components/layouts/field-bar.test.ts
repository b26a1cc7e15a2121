import { afterEach, describe, expect, it } from "vitest";
import { offlineBanner, whenTapped } from "@/components/layouts/field-bar";
import { setTimeZone } from "@/lib/format";

afterEach(() => setTimeZone(undefined));

describe("field-bar times are in the operation's time zone, not the phone's", () => {
  it("tap times and the offline banner", () => {
    setTimeZone("UTC");
    const now = new Date("2026-11-25T12:00:00Z");
    expect(whenTapped("2026-11-25T03:08:00Z", now)).toBe("3:08 AM");
    expect(whenTapped("2026-11-24T23:30:00Z", now)).toBe("Nov 24, 11:30 PM");
    expect(offlineBanner(Date.parse("2026-11-25T14:32:00Z"))).toBe("Offline — figures from 2:32 PM");
    setTimeZone("Asia/Tokyo");
    expect(whenTapped("2026-11-25T03:08:00Z", now)).toBe("12:08 PM");
    expect(offlineBanner(null)).toBe("Offline");
  });
});
