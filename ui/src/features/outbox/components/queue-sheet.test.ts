// @vitest-environment node
import { afterEach, describe, expect, it } from "vitest";
import { whenTapped } from "@/features/outbox/components/queue-sheet";
import { setTimeZone } from "@/lib/format";

afterEach(() => setTimeZone(undefined));

describe("the queue sheet's tap times are in the operation's time zone, not the phone's", () => {
  it("today's time, else the date and time", () => {
    setTimeZone("UTC");
    const now = new Date("2026-11-25T12:00:00Z");
    expect(whenTapped("2026-11-25T03:08:00Z", now)).toBe("3:08 AM");
    expect(whenTapped("2026-11-24T23:30:00Z", now)).toBe("Nov 24, 11:30 PM");
    setTimeZone("Asia/Tokyo");
    expect(whenTapped("2026-11-25T03:08:00Z", now)).toBe("12:08 PM");
  });
});
