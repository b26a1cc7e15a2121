// What makes a query stale (DESIGN.md §6; STYLE "registration, not switches"): each query
// declares it beside its key, in its queryOptions' `meta.staleOn` — the realtime messages
// (spec part 1 §7, then ours) and the kinds of write that change its answer — and this file
// only names the changes and matches them. A change that can touch any figure (an emergency
// override, a recalculation, a restore) refetches everything instead.
import type { Query, QueryClient } from "@tanstack/react-query";
import { isRealtimeOpen, lastRealtimeEventAt } from "@/lib/connectivity";

/** REALTIME_CHANGES are the realtime messages that make queries stale (EMERGENCY_OVERRIDE: everything). */
export const REALTIME_CHANGES = ["INVENTORY_UPDATED", "ACTIVITY_UPDATED", "CHARGING_UPDATED", "EARNINGS_UPDATED", "TERMS_UPDATED", "USERS_UPDATED"] as const;

/**
 * WRITE_CHANGES are the kinds of write a mutation or a driver action reports when it is
 * recorded: driverOps (a pickup or dropoff), activity (moves, recovers, a movement edited or
 * deleted), charging, custody (assignments, swaps, dead-battery transfers), users, terms,
 * earnings (rates, reductions, withholdings, task adjustments), photos, packs (minted,
 * imported, a pack's state changed), stats (a battery figure set by hand), backups (the
 * schedule saved, a backup made), session (the signed-in user's own account: the terms signed
 * again, or a paused outbox asking what to fix).
 *
 * Every mutation refreshes through these (afterWrite, invalidate): a query says what makes it
 * stale in its meta.staleOn, and no other file calls invalidateQueries (eslint.config.js).
 */
export const WRITE_CHANGES = ["driverOps", "activity", "charging", "custody", "users", "terms", "earnings", "photos", "packs", "stats", "backups", "session"] as const;

/** Change names a realtime message or a kind of write. */
export type Change = (typeof REALTIME_CHANGES)[number] | (typeof WRITE_CHANGES)[number];

/** StaleOn is a query's `meta.staleOn`: the changes that make its answer stale. */
export type StaleOn = readonly Change[];

function staleOn(query: Query): StaleOn {
  return (query.meta?.staleOn as StaleOn | undefined) ?? [];
}

/** STATE_KEY is the one /api/state query's key (lib/state.ts). */
const STATE_KEY = "/api/state";

/** Waiting maps a query (by hash) to the callers waiting for the fetch that follows its current one. */
type Waiting = Map<string, Array<() => void>>;
const waitingOf = new WeakMap<QueryClient, Waiting>();

/**
 * waiting is the client's list of queries to fetch again once their current fetch ends. The
 * first call subscribes to the client's query cache: when such a query's fetch ends (or the
 * query goes), it is invalidated once more and its waiters are released after that fetch.
 */
function waiting(queryClient: QueryClient): Waiting {
  const known = waitingOf.get(queryClient);
  if (known) return known;
  const map: Waiting = new Map();
  waitingOf.set(queryClient, map);
  queryClient.getQueryCache().subscribe((event) => {
    const hash = event.query.queryHash;
    const waiters = map.get(hash);
    if (!waiters) return;
    const release = () => waiters.forEach((done) => done());
    if (event.type === "removed") {
      map.delete(hash);
      release();
    } else if (event.type === "updated" && event.query.state.fetchStatus === "idle") {
      map.delete(hash);
      void invalidateWhere(queryClient, (q) => q.queryHash === hash).then(release, release);
    }
  });
  return map;
}

/**
 * invalidateWhere marks stale, and refetches when observed, the queries that match. A query
 * whose fetch is under way is not cancelled and restarted (TanStack's default): it fetches
 * once more when that fetch ends, since the fetch may have read the data before the change.
 * So a busy bay's stream of realtime messages, arriving faster than a slow answer, still lets
 * each answer land (with the default, each message cancelled the fetch before it, and the
 * screen kept its old figures until the messages stopped), with one fetch at a time per query
 * and none lost. The promise ends when every matching query's refetch has ended.
 */
function invalidateWhere(queryClient: QueryClient, match: (q: Query) => boolean): Promise<void> {
  const later: Promise<void>[] = [];
  const map = waiting(queryClient);
  for (const q of queryClient.getQueryCache().findAll({ predicate: match })) {
    if (q.state.fetchStatus !== "fetching") continue;
    later.push(
      new Promise<void>((done) => {
        const waiters = map.get(q.queryHash) ?? [];
        waiters.push(done);
        map.set(q.queryHash, waiters);
      }),
    );
  }
  const now = queryClient.invalidateQueries({ predicate: (q) => match(q) && q.state.fetchStatus !== "fetching" });
  return Promise.all([now, ...later]).then(() => undefined);
}

/** invalidate refetches (when observed) every query a change makes stale; "everything" all queries. */
export function invalidate(queryClient: QueryClient, change: Change | "everything"): Promise<void> {
  if (change === "everything") return invalidateWhere(queryClient, () => true);
  return invalidateWhere(queryClient, (q) => staleOn(q).includes(change));
}

/**
 * refreshWritten refetches every query some change makes stale: what the realtime link would
 * have announced while it was down (lib/realtime.ts calls it when the link reopens).
 */
export function refreshWritten(queryClient: QueryClient): Promise<void> {
  return invalidateWhere(queryClient, (q) => staleOn(q).length > 0);
}

/**
 * NOTIFICATION_GRACE_MS: after a write whose answer carried the figures, how long the app
 * waits for the realtime message before it refetches /api/state itself.
 */
export const NOTIFICATION_GRACE_MS = 1500;

/**
 * afterWrite updates the screens after a write that made changes succeeded. A ledger answer
 * carries the figures as of its commit (`stats`): they go straight into the /api/state
 * query, and while the realtime link is open the notification that follows refetches
 * /api/state once, so it is not refetched here too — unless no notification arrived within
 * NOTIFICATION_GRACE_MS either side of the answer (the link was down at the commit and its
 * message lost): then it is refetched anyway. Everything else the changes touch is refetched
 * now. (A link that reopens refetches what writes change too: lib/realtime.ts.)
 */
export function afterWrite(queryClient: QueryClient, changes: Change | readonly Change[], answer?: unknown): Promise<void> {
  const list: readonly Change[] = typeof changes === "string" ? [changes] : changes;
  const stats = (answer as { stats?: unknown } | null | undefined)?.stats;
  if (stats && typeof stats === "object") {
    queryClient.setQueryData([STATE_KEY], (old: unknown) =>
      old && typeof old === "object" ? { ...old, stats: { ...(old as { stats?: object }).stats, ...stats } } : old,
    );
  }
  const skipState = stats !== undefined && isRealtimeOpen();
  if (skipState) {
    const since = Date.now() - NOTIFICATION_GRACE_MS;
    setTimeout(() => {
      if (lastRealtimeEventAt() < since) void invalidateWhere(queryClient, (q) => q.queryKey[0] === STATE_KEY);
    }, NOTIFICATION_GRACE_MS);
  }
  return invalidateWhere(queryClient, (q) => !(skipState && q.queryKey[0] === STATE_KEY) && staleOn(q).some((c) => list.includes(c)));
}
