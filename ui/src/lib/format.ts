import { format, isValid, parseISO } from "date-fns";

/**
 * parseServerDate reads a date from the API: ISO 8601 or PocketBase's
 * 'YYYY-MM-DD HH:MM:SS.sssZ'. Returns null for empty or unparseable values.
 */
export function parseServerDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const d = parseISO(value.trim().replace(" ", "T"));
  return isValid(d) ? d : null;
}

/** formatDate shows a calendar date like 'January 5, 2026' (date-only values are not shifted by time zone). */
export function formatDate(value: string | null | undefined): string {
  if (!value) return "";
  const dateOnly = /^\d{4}-\d{2}-\d{2}/.exec(value.trim());
  if (dateOnly) {
    const d = parseISO(dateOnly[0]);
    if (isValid(d)) return format(d, "MMMM d, yyyy");
  }
  const d = parseServerDate(value);
  return d ? format(d, "MMMM d, yyyy") : value;
}

/** formatDateTime shows 'MMM d, h:mm a' (spec part 1 §9). */
export function formatDateTime(value: string | null | undefined): string {
  const d = parseServerDate(value);
  return d ? format(d, "MMM d, h:mm a") : "";
}

/** batteryCount is 'N batteries' ('1 battery'). */
export function batteryCount(n: number): string {
  return `${n} ${n === 1 ? "battery" : "batteries"}`;
}
