import type { QueryClient } from "@tanstack/react-query";
import { isRealtimeOpen } from "@/lib/realtime-status";

/** PAY_READS: the pay figures, which count the week's movements (DESIGN.md §8). */
const PAY_READS = ["/api/admin/all-earnings", "/api/admin/core-team-earnings", "/api/driver/pay-estimate"] as const;

/** EARNINGS_READS: the pay figures and the rates behind them. */
const EARNINGS_READS = [...PAY_READS, "/api/admin/pay-rates"] as const;

/** ATTENTION: the admin Home's attention strip (due sessions, pending approvals, failed PDFs). */
const ATTENTION = "/api/admin/attention";

/** TERMS_READS: the terms versions, the agreements, the Users page's terms badges and the strip's failed PDFs. */
const TERMS_READS = ["/api/admin/terms-content", "/api/terms-content/active", "/api/admin/terms-agreements", "/api/admin/users", ATTENTION] as const;

/** USERS_READS: the Users page's lists and the strip's pending approvals. */
const USERS_READS = ["/api/admin/users", "/api/admin/users/pending", ATTENTION] as const;

/**
 * INVALIDATIONS is the one map from what happened to the queries it makes stale: the realtime
 * messages (spec part 1 §7, then ours) and each kind of mutation. Query keys are the URLs
 * (spec part 1 §9), so a URL here covers its ?weekOffset=… variants too. A change that can
 * touch any figure (an emergency override, a recalculation) refetches everything instead.
 */
export const INVALIDATIONS = {
  INVENTORY_UPDATED: [
    "/api/inventory",
    "/api/admin/weekly-stats",
    "/api/admin/active-pickups",
    // ours: stats on every dashboard, and who holds which batteries
    "/api/state",
    "/api/admin/battery-holders",
    "/api/liaison/battery-holders",
    // ours: a move can move named packs (DESIGN.md §14)
    "/api/packs",
  ],
  ACTIVITY_UPDATED: [
    "/api/admin/weekly-activity",
    "/api/driver/weekly-activity",
    "/api/admin/recent-activity",
    // ours: the dashboards' feeds and daily/weekly figures
    "/api/state",
    "/api/driver/recent-movements",
    "/api/driver/dead-battery-stats",
    // ours: pay counts the week's dropoffs, moves and recovers
    ...PAY_READS,
  ],
  /** ours: pay rates, a reduction, a withholding or a task adjustment changed */
  EARNINGS_UPDATED: EARNINGS_READS,
  CHARGING_UPDATED: [
    "/api/admin/charging-sessions",
    "/api/inventory",
    // ours: the sessions and ETAs on the dashboards and the liaison view
    "/api/state",
    "/api/liaison/charging-sessions",
    // ours: the attention strip's due sessions (the charging-due job sends this as one falls due)
    ATTENTION,
  ],
  /** a pickup or dropoff: the figures, the feeds, who holds what */
  driverOps: [
    "/api/state",
    "/api/driver/recent-movements",
    "/api/driver/dead-battery-stats",
    "/api/driver/weekly-activity",
    "/api/admin/recent-activity",
    "/api/admin/weekly-activity",
    "/api/admin/active-pickups",
    "/api/admin/battery-holders",
    "/api/inventory",
    ...PAY_READS,
  ],
  /** a logged activity, or a movement edited or deleted: every read a movement touches */
  activity: [
    "/api/state",
    "/api/admin/weekly-activity",
    "/api/driver/weekly-activity",
    "/api/admin/recent-activity",
    "/api/driver/recent-movements",
    "/api/driver/dead-battery-stats",
    "/api/admin/weekly-stats",
    "/api/admin/active-pickups",
    "/api/admin/battery-holders",
    "/api/liaison/battery-holders",
    "/api/inventory",
    ...PAY_READS,
  ],
  /** a charging session started, completed, resized or deleted */
  charging: [
    "/api/admin/charging-sessions",
    "/api/liaison/charging-sessions",
    "/api/state",
    "/api/inventory",
    "/api/admin/recent-activity",
    ATTENTION,
  ],
  /** an assignment, swap or dead-battery transfer, or assignments deleted */
  custody: [
    "/api/admin/battery-holders",
    "/api/liaison/battery-holders",
    "/api/state",
    "/api/inventory",
    "/api/admin/active-pickups",
    "/api/admin/recent-activity",
  ],
  /** an account created, changed, approved, suspended or deleted */
  users: [...USERS_READS, "/api/admin/all-earnings", "/api/admin/core-team-earnings"],
  /** ours: an account was created, changed or deleted (its approval among the rest) */
  USERS_UPDATED: USERS_READS,
  /** ours: a terms version created, edited or activated; an agreement's PDF made or failed */
  TERMS_UPDATED: TERMS_READS,
  /** a terms version saved or activated, or a PDF retried */
  terms: TERMS_READS,
  /** a pay rate, reduction, withholding or task adjustment saved */
  earnings: [...EARNINGS_READS, "/api/admin/users"],
} as const satisfies Record<string, readonly string[]>;

/** Change names an entry of INVALIDATIONS, or "everything". */
export type Change = keyof typeof INVALIDATIONS | "everything";

function urlPath(key: unknown): string | null {
  return typeof key === "string" ? key.split("?")[0]! : null;
}

/**
 * invalidateUrls marks stale (and refetches, when observed) every query whose key starts
 * with one of urls, ignoring query strings and further key parts.
 */
export function invalidateUrls(queryClient: QueryClient, urls: readonly string[]): Promise<void> {
  const wanted = new Set(urls);
  return queryClient.invalidateQueries({
    predicate: (query) => {
      const path = urlPath(query.queryKey[0]);
      return path !== null && wanted.has(path);
    },
  });
}

/** invalidate refetches what change makes stale (every query for "everything"). */
export function invalidate(queryClient: QueryClient, change: Change): Promise<void> {
  if (change === "everything") return queryClient.invalidateQueries();
  return invalidateUrls(queryClient, INVALIDATIONS[change]);
}

/** STATE_KEY is the one /api/state query's key (lib/state.ts). */
const STATE_KEY = "/api/state";

/**
 * afterWrite updates the screens after a write of kind change succeeded. A ledger answer
 * carries the figures as of its commit (`stats`): they go straight into the /api/state
 * query, and while the realtime link is open the change notification that follows refetches
 * /api/state once, so it is not refetched here too. Everything else change touches is
 * refetched now.
 */
export function afterWrite(queryClient: QueryClient, change: Exclude<Change, "everything">, answer?: unknown): Promise<void> {
  const stats = (answer as { stats?: unknown } | null | undefined)?.stats;
  if (stats && typeof stats === "object") {
    queryClient.setQueryData([STATE_KEY], (old: unknown) =>
      old && typeof old === "object" ? { ...old, stats: { ...(old as { stats?: object }).stats, ...stats } } : old,
    );
  }
  const skipState = stats !== undefined && isRealtimeOpen();
  return invalidateUrls(
    queryClient,
    INVALIDATIONS[change].filter((url) => !(skipState && url === STATE_KEY)),
  );
}
