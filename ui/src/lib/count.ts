// zod/mini, the app's one zod flavour (lint refuses "zod"): its checks are functions a bundle keeps
// only when used, which matters on the driver's first screen over a phone network (DESIGN.md §10).
import * as z from "zod/mini";

/** MAX_COUNT is the largest battery count the server takes in one request (DESIGN.md §5). */
export const MAX_COUNT = 10_000;

/** MAX_FLEET is the largest fleet total or override target the server takes (DESIGN.md §5). */
export const MAX_FLEET = 1_000_000;

/** CountRules are a count field's bounds and the spec's messages for it. */
export type CountRules = {
  /** message for anything that is not a whole number from min to max (the fallback of the others) */
  message: string;
  /** smallest value allowed (default 0) */
  min?: number;
  /** largest value allowed (default MAX_COUNT) */
  max?: number;
  /** message when the field is blank (default message); unused when blankIsZero */
  required?: string;
  /** message below min (default message) */
  tooSmall?: string;
  /** message above max (default message) */
  tooLarge?: string;
  /** read a blank field as 0 instead of refusing it */
  blankIsZero?: boolean;
};

const WHOLE = /^\d+$/;

/**
 * count is the one zod schema for a count typed into a form: it takes the field's text and
 * gives a JSON number (the server accepts only JSON integers). Checks, first failure wins:
 * blank (required, or 0 with blankIsZero), not a whole number (message), below min
 * (tooSmall), above max (tooLarge).
 *
 *   quantity: count({ min: 1, required: "Quantity is required", message: "Quantity must be a whole number" })
 */
export function count({
  message,
  min = 0,
  max = MAX_COUNT,
  required = message,
  tooSmall = message,
  tooLarge = message,
  blankIsZero = false,
}: CountRules) {
  return z.pipe(
    z.string(),
    z.transform((raw: string, ctx): number => {
    const text = raw.trim();
    if (text === "" && !blankIsZero) {
      ctx.issues.push({ code: "custom", message: required, input: raw });
      return z.NEVER;
    }
    if (text !== "" && !WHOLE.test(text)) {
      ctx.issues.push({ code: "custom", message, input: raw });
      return z.NEVER;
    }
    const n = text === "" ? 0 : Number(text);
    if (n < min) {
      ctx.issues.push({ code: "custom", message: tooSmall, input: raw });
      return z.NEVER;
    }
    if (n > max) {
      ctx.issues.push({ code: "custom", message: tooLarge, input: raw });
      return z.NEVER;
    }
    return n;
    }),
  );
}

/**
 * wholeNumber reads typed text as a whole number from 0 to max: digits only (no sign, no
 * decimals, no exponent or hex such as "1e3" or "0x10"), else null. count() is its zod form;
 * inline edits that are not forms (stat edits, quick logs, swap figures) call it directly.
 */
export function wholeNumber(raw: string, max: number = MAX_FLEET): number | null {
  const text = raw.trim();
  if (!WHOLE.test(text)) return null;
  const n = Number(text);
  return n <= max ? n : null;
}

/** InlineCount is what saving a one-number inline form does: close without saving (a 0), save the value, or refuse the text. */
export type InlineCount = { kind: "close" } | { kind: "save"; value: number } | { kind: "invalid" };

/** INVALID_VALUE is the toast for refused inline text (spec part 1 §5: stat edits and quick logs). */
export const INVALID_VALUE = { title: "Invalid Value", description: "Please enter a valid positive number" } as const;

/**
 * parseInlineCount checks an inline entry (an admin's stat edit spec part 1 §4, a quick log): a
 * whole number up to max; 0 closes without saving; negative, fractional or non-numeric text is
 * refused.
 */
export function parseInlineCount(raw: string, max: number = MAX_FLEET): InlineCount {
  const value = wholeNumber(raw, max);
  if (value === null) return { kind: "invalid" };
  if (value === 0) return { kind: "close" };
  return { kind: "save", value };
}
