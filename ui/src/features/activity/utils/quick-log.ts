import { MAX_COUNT, wholeNumber } from "@/lib/count";

/** QuickLogResult is what saving a quick log entry does. */
export type QuickLogResult = { kind: "cancel" } | { kind: "save"; quantity: number } | { kind: "invalid" };

/** INVALID_QUICK_LOG is the toast for a refused entry (the stat edit's message, spec part 1 §5). */
export const INVALID_QUICK_LOG = { title: "Invalid Value", description: "Please enter a valid positive number" } as const;

/**
 * parseQuickLog checks a Moves/Recovers entry: a whole number; 0 cancels without saving;
 * negative, fractional or non-numeric text is refused.
 */
export function parseQuickLog(raw: string): QuickLogResult {
  const n = wholeNumber(raw, MAX_COUNT);
  if (n === null) return { kind: "invalid" };
  if (n === 0) return { kind: "cancel" };
  return { kind: "save", quantity: n };
}
