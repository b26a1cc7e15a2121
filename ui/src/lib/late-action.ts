import { timeZone as operationZone } from "@/lib/format";

/** LATE_AFTER_MS: an action recorded more than a minute after it was done reads as late. */
export const LATE_AFTER_MS = 60_000;

function clockTime(d: Date, timeZone?: string): string {
  const opts: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  try {
    return d.toLocaleTimeString("en-GB", timeZone ? { ...opts, timeZone } : opts);
  } catch {
    return d.toLocaleTimeString("en-GB", opts); // an unknown zone name: the browser's own
  }
}

/**
 * lateActionLabel is "done 09:15 · sent 10:42" (the operation's time zone) for an action the
 * server recorded more than a minute after it was done (a driver's queued action sent late,
 * DESIGN.md §12), and null otherwise. The zone is lib/format's (from the session answer).
 */
export function lateActionLabel(m: { createdAt: string; recordedAt?: string }, timeZone: string | undefined = operationZone()): string | null {
  if (!m.recordedAt) return null;
  const done = new Date(m.createdAt);
  const sent = new Date(m.recordedAt);
  if (Number.isNaN(done.getTime()) || Number.isNaN(sent.getTime())) return null;
  if (sent.getTime() - done.getTime() <= LATE_AFTER_MS) return null;
  return `done ${clockTime(done, timeZone)} · sent ${clockTime(sent, timeZone)}`;
}
