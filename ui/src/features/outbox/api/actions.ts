// The driver actions the outbox can send (DESIGN.md §12; STYLE "registration, not switches").
// Each feature declares its queued actions once, in its own api file, with defineAction —
// kind, how it is sent (a keyed POST to url, or its own send), its label in the queue, its
// optimistic effect (the batteries held, the pay estimate, the feed), what it refreshes once
// recorded and which numbers Edit & resend offers — and app/driver-actions.ts registers them.
// The outbox engine, the queue sheet and the driver dashboard know only kinds: a new action is
// one declaration in its feature's api file (and the screen that submits it).
import type { Change } from "@/lib/invalidation";
import type { OutboxItem } from "@/features/outbox/api/db";

/** Body is a queued action's JSON body (without occurredAt). */
export type Body = Record<string, unknown>;

/** FeedEntry is how a queued movement shows in the driver's feed until it is recorded. */
export type FeedEntry = { type: string; quantity: number; goodBatteries?: number; deadBatteries?: number };

/** PayCounts are what a queued action adds to the pay estimate's progress. */
export type PayCounts = { deadBatteries?: number; moves?: number; recovers?: number };

/**
 * Effect is what a queued (not yet recorded) action shows at once: holdings is the change to
 * the batteries the driver holds, pay its pay counts (an action with pay counts as one
 * "waiting to send" on the estimate), feed its entry in the driver's feed.
 */
export type Effect = { holdings?: number; pay?: PayCounts; feed?: FeedEntry };

/** DriverAction declares one kind of queued driver action. */
export type DriverAction = {
  /** kind is stored with each item: never rename a kind that phones may still hold. */
  kind: string;
  /** url: the action is a keyed POST of its body and occurredAt to url (unless send is given). */
  url?: string;
  /** send sends an item its own way (a photo's three steps); it throws ApiError/TransportError. */
  send?: (item: OutboxItem) => Promise<unknown>;
  /** label names an item in the queue sheet ("Pickup · 3 batteries"). */
  label: (body: Body) => string;
  /** effect is what a waiting item shows at once; none when omitted. */
  effect?: (body: Body) => Effect;
  /** refreshes: the changes (lib/invalidation.ts) recording the action makes. */
  refreshes: readonly Exclude<Change, "everything">[];
  /** edit: the number fields Edit & resend offers, as [field, label]. */
  edit?: readonly (readonly [string, string])[];
  /**
   * packs: the lists of pack serials the body may carry (DESIGN.md §14), as [field, label]:
   * Edit & resend keeps them and offers to remove a pack (the one a refusal names, first).
   */
  packs?: readonly (readonly [string, string])[];
  /**
   * migrate moves into the outbox's store what an older version of the app kept elsewhere for
   * this kind (the damage photos' ids it kept in localStorage); the outbox runs it once per
   * page, before its first round. A failure leaves the old copy for the next start.
   */
  migrate?: () => Promise<void>;
};

const registry = new Map<string, DriverAction>();

/** defineAction declares an action (typed identity: the app registers it). */
export function defineAction(action: DriverAction): DriverAction {
  return action;
}

/** registerActions makes actions sendable; registering a kind again replaces it. */
export function registerActions(...actions: DriverAction[]): void {
  for (const a of actions) registry.set(a.kind, a);
}

/** actionOf is the registered action of kind, or undefined. */
export function actionOf(kind: string): DriverAction | undefined {
  return registry.get(kind);
}

/** allActions lists the registered actions. */
export function allActions(): DriverAction[] {
  return [...registry.values()];
}

/** num reads a body's number field (0 when missing or not a number). */
export function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

/** serials reads a body's list of pack serials (empty when missing or not a list of strings). */
export function serials(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
}

/** packsLabel is the queue's " · 3 packs" after an action's label, or "" when it names none. */
export function packsLabel(body: Body, fields: readonly string[]): string {
  const n = fields.reduce((sum, f) => sum + serials(body[f]).length, 0);
  return n === 0 ? "" : n === 1 ? " · 1 pack" : ` · ${n} packs`;
}

/**
 * editedBody is a refused item's body after Edit & resend: the numbers typed (blank keeps the
 * value) and, from each pack list, the serials removed (a list left empty is dropped); all
 * else as it was.
 */
export function editedBody(body: Body, numbers: Record<string, string>, removed: Record<string, readonly string[]> = {}): Body {
  const next: Body = { ...body };
  for (const [name, v] of Object.entries(numbers)) if (v.trim() !== "") next[name] = Number(v);
  for (const [field, gone] of Object.entries(removed)) {
    if (gone.length === 0) continue;
    const kept = serials(body[field]).filter((s) => !gone.includes(s));
    if (kept.length > 0) next[field] = kept;
    else delete next[field];
  }
  return next;
}

/** effectOf is what item shows while waiting (nothing for a refused item or an unknown kind). */
export function effectOf(item: OutboxItem): Effect {
  if (item.status === "refused") return {};
  return actionOf(item.kind)?.effect?.(item.body) ?? {};
}

/** resetActionsForTests forgets every registered action. */
export function resetActionsForTests(): void {
  registry.clear();
}
