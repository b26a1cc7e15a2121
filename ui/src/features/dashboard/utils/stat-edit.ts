import { wholeNumber } from "@/lib/count";

/**
 * StatEditResult is what saving an inline stat edit does: close without saving (a 0, spec
 * part 1 §4), save the value, or refuse with the spec's 'Invalid Value' toast.
 */
export type StatEditResult = { kind: "close" } | { kind: "save"; value: number } | { kind: "invalid" };

/** INVALID_STAT is the toast for a refused stat edit (spec part 1 §5). */
export const INVALID_STAT = { title: "Invalid Value", description: "Please enter a valid positive number" } as const;

/**
 * parseStatEdit checks an admin's stat edit: a whole number, not NaN, not negative; 0 means
 * close edit mode without saving.
 */
export function parseStatEdit(raw: string): StatEditResult {
  const value = wholeNumber(raw);
  if (value === null) return { kind: "invalid" };
  if (value === 0) return { kind: "close" };
  return { kind: "save", value };
}
