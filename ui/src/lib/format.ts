// The one place dates and times become text (spec part 1 §2, §9; DESIGN.md §3). Every time is
// shown in the operation's time zone, the zone the server cuts days and weeks in, not the
// device's: a phone set to another zone still sees the bay's clock and the bay's "today".
// The zone comes with the signed-in user (GET /api/auth/user's timeZone, set by lib/auth);
// before it is known the device's zone is used. Each formatter takes the zone as an optional
// last parameter, so tests choose it; `now` is a parameter wherever the clock matters.
import { isValid, parseISO } from "date-fns";

let operationZone: string | undefined;

/** isTimeZone reports an IANA zone name this browser knows. */
export function isTimeZone(name: string | null | undefined): name is string {
  if (!name) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * setTimeZone makes name the zone every time is shown in (the operation's, from the session);
 * an empty or unknown name leaves the zone as it was.
 */
export function setTimeZone(name: string | null | undefined): void {
  if (isTimeZone(name)) operationZone = name;
}

/** timeZone is the zone times are shown in: the operation's once known, else undefined (the device's). */
export function timeZone(): string | undefined {
  return operationZone;
}

/**
 * parseServerDate reads a date from the API: ISO 8601 or PocketBase's
 * 'YYYY-MM-DD HH:MM:SS.sssZ'. Returns null for empty or unparseable values.
 */
export function parseServerDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const d = parseISO(value.trim().replace(" ", "T"));
  return isValid(d) ? d : null;
}

function toDate(value: string | Date | null | undefined): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  return parseServerDate(value);
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** WallClock is an instant as a clock on the wall of a zone reads it. */
type WallClock = { year: number; month: number; day: number; hour: number; minute: number; weekday: number };

const wallFormats = new Map<string, Intl.DateTimeFormat>();

// wallClock reads d in zone (the device's when undefined) with one cached Intl formatter per
// zone: numbers only, so no locale's spacing (ICU puts a narrow no-break space before "PM")
// reaches the text.
function wallClock(d: Date, zone: string | undefined): WallClock {
  const key = zone ?? "";
  let f = wallFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      hourCycle: "h23",
      weekday: "short",
    });
    wallFormats.set(key, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(d)) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? "") + 1,
  };
}

const pad2 = (n: number) => String(n).padStart(2, "0");
const monthShort = (w: WallClock) => MONTHS[w.month - 1]!.slice(0, 3);
const clockTime = (w: WallClock) => `${w.hour % 12 || 12}:${pad2(w.minute)} ${w.hour < 12 ? "AM" : "PM"}`;

/** formatDate shows a calendar date like 'January 5, 2026' (a date-only value is that date in any zone). */
export function formatDate(value: string | null | undefined, zone: string | undefined = operationZone): string {
  if (!value) return "";
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (dateOnly) {
    const [, y, m, d] = dateOnly;
    if (isValid(parseISO(value.trim()))) return `${MONTHS[Number(m) - 1]} ${Number(d)}, ${y}`;
  }
  const d = parseServerDate(value);
  if (!d) return value;
  const w = wallClock(d, zone);
  return `${MONTHS[w.month - 1]} ${w.day}, ${w.year}`;
}

/** formatDayMonth shows a date-only value (YYYY-MM-DD) as 'Nov 16' ('' when it is not one). */
export function formatDayMonth(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  return m && MONTHS[Number(m[2]) - 1] ? `${MONTHS[Number(m[2]) - 1]!.slice(0, 3)} ${Number(m[3])}` : "";
}

/** formatTime shows a time like '3:05 PM' ('' when unparseable). */
export function formatTime(value: string | Date | null | undefined, zone: string | undefined = operationZone): string {
  const d = toDate(value);
  return d ? clockTime(wallClock(d, zone)) : "";
}

/** formatDateTime shows the spec's 'MMM d, h:mm a' ('Jan 5, 3:05 PM'; '' when unparseable). */
export function formatDateTime(value: string | Date | null | undefined, zone: string | undefined = operationZone): string {
  const d = toDate(value);
  if (!d) return "";
  const w = wallClock(d, zone);
  return `${monthShort(w)} ${w.day}, ${clockTime(w)}`;
}

/** formatDateTimeYear shows 'MMM d, yyyy, h:mm a' ('Jan 5, 2026, 3:05 PM'), for records kept over years. */
export function formatDateTimeYear(value: string | Date | null | undefined, zone: string | undefined = operationZone): string {
  const d = toDate(value);
  if (!d) return "";
  const w = wallClock(d, zone);
  return `${monthShort(w)} ${w.day}, ${w.year}, ${clockTime(w)}`;
}

/** today is the date in the zone at now, as YYYY-MM-DD. */
export function today(now: Date = new Date(), zone: string | undefined = operationZone): string {
  const w = wallClock(now, zone);
  return `${w.year}-${pad2(w.month)}-${pad2(w.day)}`;
}

/** weekday is the day of the week in the zone at now: Monday 1 … Sunday 7 (the server's weeks start on Monday). */
export function weekday(now: Date = new Date(), zone: string | undefined = operationZone): number {
  return wallClock(now, zone).weekday;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

function ago(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many} ago`;
}

/**
 * formatRelativeTime is the Recent Activity card's time (spec part 1 §2): 'Just now' under a
 * minute (and for times in the future, i.e. a clock a little ahead of ours), then
 * 'N mins ago', 'N hours ago', 'N days ago' — never weeks or months. A count of one reads
 * '1 min ago', '1 hour ago', '1 day ago'. Unparseable values give ''. No zone is involved.
 */
export function formatRelativeTime(value: string | Date | null | undefined, now: Date = new Date()): string {
  const d = toDate(value);
  if (!d) return "";
  const ms = now.getTime() - d.getTime();
  if (ms < MINUTE_MS) return "Just now";
  if (ms < HOUR_MS) return ago(Math.floor(ms / MINUTE_MS), "min", "mins");
  if (ms < DAY_MS) return ago(Math.floor(ms / HOUR_MS), "hour", "hours");
  return ago(Math.floor(ms / DAY_MS), "day", "days");
}

/**
 * isReadyNow reports whether an ETA has passed or falls within the current minute (spec
 * part 1 §2: such sessions read 'ready now').
 */
export function isReadyNow(etaAt: string | Date | null | undefined, now: Date = new Date()): boolean {
  const eta = toDate(etaAt);
  if (!eta) return false;
  const minuteStart = now.getTime() - (now.getTime() % MINUTE_MS);
  return eta.getTime() < minuteStart + MINUTE_MS;
}

/**
 * formatEta is one Charging ETA line: 'N ready now' when the ETA has passed or is within the
 * current minute, else 'N ready at 3:05 PM'. A missing ETA gives ''.
 */
export function formatEta(quantity: number, etaAt: string | Date | null | undefined, now: Date = new Date(), zone: string | undefined = operationZone): string {
  const eta = toDate(etaAt);
  if (!eta) return "";
  return isReadyNow(eta, now) ? `${quantity} ready now` : `${quantity} ready at ${formatTime(eta, zone)}`;
}

/** batteryCount is 'N batteries' ('1 battery'). */
export function batteryCount(n: number): string {
  return `${n} ${n === 1 ? "battery" : "batteries"}`;
}
