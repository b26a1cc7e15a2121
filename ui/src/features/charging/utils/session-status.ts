import { count } from "@/lib/count";
import { batteryCount, parseServerDate } from "@/lib/format";

/** SessionStatus is a session's Status column: 'Charging' until its ETA, then 'Due'. */
export type SessionStatus = "Charging" | "Due";

/**
 * sessionStatus is 'Due' once the ETA is now or past (spec part 1 §4), else 'Charging'.
 * A session without a readable ETA is still charging.
 */
export function sessionStatus(etaAt: string | null | undefined, now: Date): SessionStatus {
  const eta = parseServerDate(etaAt);
  return eta && eta.getTime() <= now.getTime() ? "Due" : "Charging";
}

/** isOverdue reports an ETA strictly in the past: the table shows it red with '(Overdue)'. */
export function isOverdue(etaAt: string | null | undefined, now: Date): boolean {
  const eta = parseServerDate(etaAt);
  return !!eta && eta.getTime() < now.getTime();
}

/** earliestEtaFirst sorts sessions by ETA, those without one last (simplified mode shows the first). */
export function earliestEtaFirst<T extends { etaAt: string }>(sessions: readonly T[]): T[] {
  const t = (s: T) => parseServerDate(s.etaAt)?.getTime() ?? Number.POSITIVE_INFINITY;
  return [...sessions].sort((a, b) => t(a) - t(b));
}

/** ETA_ENTRIES is how many ETAs the Charging ETA list shows (spec part 1 §9). */
export const ETA_ENTRIES = 2;

/** etaEntries keeps the sessions with a readable ETA, soonest first, at most ETA_ENTRIES. */
export function etaEntries<T extends { etaAt: string }>(sessions: readonly T[]): T[] {
  return earliestEtaFirst(sessions.filter((s) => parseServerDate(s.etaAt) !== null)).slice(0, ETA_ENTRIES);
}

/** CHARGER_BADGE_CLASSES gives each charger type its badge colour. */
const CHARGER_BADGE_CLASSES: Record<string, string> = {
  "2.5A": "border-transparent bg-sky-100 text-sky-900",
  "4A": "border-transparent bg-violet-100 text-violet-900",
  "5A": "border-transparent bg-emerald-100 text-emerald-900",
};

/** chargerBadgeClass is the badge colour of chargerType (neutral for an unknown type). */
export function chargerBadgeClass(chargerType: string): string {
  return CHARGER_BADGE_CLASSES[chargerType] ?? "border-transparent bg-secondary text-secondary-foreground";
}

/**
 * QuantityChange is what an edit of a session's quantity does: nothing (unchanged or
 * invalid), a reduction (asks where the removed batteries go) or an increase (from waiting).
 */
export type QuantityChange = { kind: "none" } | { kind: "reduce"; by: number } | { kind: "increase"; by: number };

const sessionQuantity = count({ message: "Please enter a valid number 0 or greater" });

/** quantityChange compares the typed quantity with the current one (spec part 1 §2). */
export function quantityChange(current: number, typed: string): QuantityChange {
  const parsed = sessionQuantity.safeParse(typed);
  if (!parsed.success) return { kind: "none" };
  const next = parsed.data;
  if (next === current) return { kind: "none" };
  return next < current ? { kind: "reduce", by: current - next } : { kind: "increase", by: next - current };
}

/**
 * quantityChangeSummary is the Confirm Action sentence of a session's quantity change (and
 * of Mark Done, a change to 0 into Ready): 'Change the session's quantity from 5 to 3. 2
 * batteries go to Ready.'
 */
export function quantityChangeSummary(before: number, after: number, destination: "ready" | "waiting" | ""): string {
  const moved = Math.abs(before - after);
  const where = after < before ? (destination === "ready" ? "Ready" : "Waiting") : null;
  const tail = where ? ` ${batteryCount(moved)} go to ${where}.` : after > before ? ` ${batteryCount(moved)} are taken from Waiting.` : "";
  return `Change the session's quantity from ${before} to ${after}.${tail}`;
}
