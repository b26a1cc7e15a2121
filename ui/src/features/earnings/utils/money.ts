import { formatDayMonth } from "@/lib/format";

/** USD formats money with 2 decimals (spec part 2 §9): 1234.5 → "$1,234.50". */
const USD = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** formatMoney shows an amount the server sends (a number with 2 decimals) as dollars. */
export function formatMoney(amount: number | undefined | null): string {
  return USD.format(Number.isFinite(amount) ? (amount as number) : 0);
}

/**
 * poolShares shows the pool's shares as they are paid: the server splits the pool to the cent
 * and gives the odd cents to the first members, so three admins sharing $26.30 get $8.77,
 * $8.77 and $8.76. Equal shares show once ("Share Each"); unequal ones each, largest first
 * ("Shares"). fallback is the smallest share, shown when no member is listed.
 */
export function poolShares(shares: number[], fallback: number): { label: string; value: string } {
  if (shares.length === 0 || shares.every((s) => s === shares[0])) {
    return { label: "Share Each", value: formatMoney(shares[0] ?? fallback) };
  }
  return { label: "Shares", value: [...shares].sort((a, b) => b - a).map(formatMoney).join(", ") };
}

/** RATE is a pay rate as typed: 0 or more, at most 2 decimals (spec part 2 §5, step 0.01). */
const RATE = /^(0|[1-9]\d{0,8})(\.\d{1,2})?$/;

/** parseRate reads a typed rate (a leading "$" and spaces allowed), or null when it is not one. */
export function parseRate(raw: string): number | null {
  const t = raw.trim().replace(/^\$/, "");
  if (!RATE.test(t)) return null;
  return Number(t);
}

/** PERCENT_RANGE is the message for a reduction or withholding outside 0-100 (spec part 2 §5). */
export const PERCENT_RANGE = "Please enter a number between 0 and 100";

/** parseReduction reads a pay reduction: a whole number 0-100, or null. */
export function parseReduction(raw: string): number | null {
  const t = raw.trim();
  if (!/^\d{1,3}$/.test(t)) return null;
  const n = Number(t);
  return n <= 100 ? n : null;
}

/** parseWithholding reads a pool withholding: 0-100 in steps of 0.1, or null. */
export function parseWithholding(raw: string): number | null {
  const t = raw.trim();
  if (!/^\d{1,3}(\.\d)?$/.test(t)) return null;
  const n = Number(t);
  return n <= 100 ? n : null;
}

/** addDays moves a YYYY-MM-DD date by n days (calendar days, no time zone involved). */
export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return t.toISOString().slice(0, 10);
}

/** weekLabel is "Nov 16 – Nov 22" for a week starting on the Monday start. */
export function weekLabel(start: string): string {
  return `${formatDayMonth(start)} – ${formatDayMonth(addDays(start, 6))}`;
}

/** DAILY_TARGET is the stated daily target (spec part 2 §9). */
export const DAILY_TARGET = { deadBatteries: 20, moves: 60, recovers: 0 } as const;
