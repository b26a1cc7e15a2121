// @vitest-environment node
/// <reference types="node" />
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formatDate,
  formatDateTime,
  formatDateTimeYear,
  formatEta,
  formatRelativeTime,
  formatTime,
  isReadyNow,
  isTimeZone,
  setTimeZone,
  timeZone,
  today,
  weekday,
} from "@/lib/format";

// The device is in Kiritimati (UTC+14) and the bay in Los Angeles (UTC-8 in January): the
// widest gap there is, so a time shown in the device's zone lands on another day.
const DEVICE = "Pacific/Kiritimati";
const BAY = "America/Los_Angeles";
const deviceTZ = process.env.TZ;
beforeAll(() => {
  process.env.TZ = DEVICE;
});
afterAll(() => {
  process.env.TZ = deviceTZ;
});

describe("the device's zone differs from the operation's", () => {
  it("is set for these tests", () => {
    expect(new Date("2026-01-05T23:30:00Z").getTimezoneOffset()).toBe(-14 * 60);
  });
});

describe("times in the operation's zone", () => {
  // Monday Jan 5 2026, 23:30 UTC: 3:30 PM Monday in Los Angeles, 1:30 PM Tuesday Jan 6 on the device
  const at = "2026-01-05 23:30:00.000Z";
  it("formatDateTime is 'MMM d, h:mm a' in the zone", () => {
    expect(formatDateTime(at, BAY)).toBe("Jan 5, 3:30 PM");
    expect(formatDateTime(at, "UTC")).toBe("Jan 5, 11:30 PM");
    expect(formatDateTime("2026-11-21T08:07:00Z", BAY)).toBe("Nov 21, 12:07 AM");
    expect(formatDateTime(undefined, BAY)).toBe("");
    expect(formatDateTime("garbage", BAY)).toBe("");
  });
  it("formatTime is 'h:mm a' with a plain space, noon and midnight as 12", () => {
    expect(formatTime(at, BAY)).toBe("3:30 PM");
    expect(formatTime("2026-01-05T20:00:00Z", BAY)).toBe("12:00 PM");
    expect(formatTime("2026-01-06T08:05:00Z", BAY)).toBe("12:05 AM");
  });
  it("formatDateTimeYear carries the year", () => {
    expect(formatDateTimeYear(at, BAY)).toBe("Jan 5, 2026, 3:30 PM");
    expect(formatDateTimeYear("2026-01-01T03:00:00Z", BAY)).toBe("Dec 31, 2025, 7:00 PM");
  });
  it("formatDate gives the zone's date for an instant and the date itself for a date-only value", () => {
    expect(formatDate(at, BAY)).toBe("January 5, 2026");
    expect(formatDate("2026-01-06", BAY)).toBe("January 6, 2026");
    expect(formatDate("2026-01-06", "Pacific/Pago_Pago")).toBe("January 6, 2026");
    expect(formatDate("", BAY)).toBe("");
  });
  it("today and weekday are the zone's, not the device's", () => {
    const now = new Date(at);
    expect(today(now, BAY)).toBe("2026-01-05");
    expect(weekday(now, BAY)).toBe(1); // Monday, the pay card's first day
    expect(today(now, DEVICE)).toBe("2026-01-06");
    expect(weekday(now, DEVICE)).toBe(2);
    expect(weekday(new Date("2026-01-12T07:59:00Z"), BAY)).toBe(7); // still Sunday in Los Angeles
  });
  it("formatEta reads the ETA in the zone", () => {
    expect(formatEta(3, "2026-01-05T23:45:00Z", new Date(at), BAY)).toBe("3 ready at 3:45 PM");
  });
  it("uses the zone set from the session, and keeps it over an unknown name", () => {
    expect(timeZone()).toBeUndefined();
    expect(formatDateTime(at)).toBe("Jan 6, 1:30 PM"); // the device's, until the session says
    setTimeZone(BAY);
    expect(formatDateTime(at)).toBe("Jan 5, 3:30 PM");
    expect(today(new Date(at))).toBe("2026-01-05");
    setTimeZone("Not/AZone");
    setTimeZone(undefined);
    expect(timeZone()).toBe(BAY);
    expect(isTimeZone("Not/AZone")).toBe(false);
  });
});

describe("formatRelativeTime", () => {
  const now = new Date("2026-01-05T15:30:20Z");
  const ago = (ms: number) => new Date(now.getTime() - ms);
  it.each([
    [0, "Just now"],
    [59_999, "Just now"],
    [60_000, "1 min ago"],
    [2 * 60_000 + 5, "2 mins ago"],
    [59 * 60_000, "59 mins ago"],
    [60 * 60_000, "1 hour ago"],
    [5 * 3_600_000 + 1, "5 hours ago"],
    [23 * 3_600_000 + 59 * 60_000, "23 hours ago"],
    [24 * 3_600_000, "1 day ago"],
    [3 * 86_400_000, "3 days ago"],
    [400 * 86_400_000, "400 days ago"],
  ])("%i ms ago reads %s", (ms, text) => {
    expect(formatRelativeTime(ago(ms), now)).toBe(text);
  });
  it("treats a time slightly in the future as just now", () => {
    expect(formatRelativeTime(new Date(now.getTime() + 30_000), now)).toBe("Just now");
  });
  it("reads server strings and gives '' for garbage", () => {
    expect(formatRelativeTime(ago(3 * 60_000).toISOString(), now)).toBe("3 mins ago");
    expect(formatRelativeTime("not a date", now)).toBe("");
    expect(formatRelativeTime(null, now)).toBe("");
  });
});

describe("isReadyNow and formatEta", () => {
  const now = new Date("2026-01-05T23:30:20Z");
  it("says ready now when the ETA has passed", () => {
    expect(formatEta(4, new Date(now.getTime() - 3_600_000), now, BAY)).toBe("4 ready now");
  });
  it("says ready now within the current minute, even seconds ahead", () => {
    expect(formatEta(2, "2026-01-05T23:30:59Z", now, BAY)).toBe("2 ready now");
    expect(isReadyNow("2026-01-05T23:31:00Z", now)).toBe(false);
  });
  it("gives the 12-hour time otherwise, and '' without an ETA", () => {
    expect(formatEta(3, "2026-01-05T23:31:00Z", now, BAY)).toBe("3 ready at 3:31 PM");
    expect(formatEta(1, "2026-01-06T17:05:00Z", now, BAY)).toBe("1 ready at 9:05 AM");
    expect(formatEta(3, "", now, BAY)).toBe("");
  });
});
