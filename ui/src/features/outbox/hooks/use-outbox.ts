import { useSyncExternalStore } from "react";
import { type OutboxItem, type OutboxSnapshot, getSnapshot, subscribe } from "@/features/outbox/api/outbox";
import { actionOf, effectOf } from "@/features/outbox/api/actions";

/** useOutbox follows the outbox (items, round in progress, pause, offline). */
export function useOutbox(): OutboxSnapshot {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

/** itemLabel names a queued action for the queue sheet (its action's label). */
export function itemLabel(item: OutboxItem): string {
  return actionOf(item.kind)?.label(item.body) ?? item.kind;
}

/** holdingsDelta is how queued actions change the batteries the driver holds. */
export function holdingsDelta(items: readonly OutboxItem[]): number {
  return items.reduce((d, x) => d + (effectOf(x).holdings ?? 0), 0);
}

/** statusLine is the driver header's line for the queue, or null when there is nothing to say. */
export function statusLine(s: Pick<OutboxSnapshot, "items" | "sent" | "sending" | "paused" | "offline"> & { others?: number }): string | null {
  const own = ownLine(s);
  const others = s.others ?? 0;
  if (others === 0) return own;
  const theirs = `${others} ${others === 1 ? "action" : "actions"} of another account`;
  return own ? `${own} · ${theirs}` : `${theirs} waiting on this phone`;
}

function ownLine(s: Pick<OutboxSnapshot, "items" | "sent" | "sending" | "paused" | "offline">): string | null {
  const waiting = s.items.filter((x) => x.status !== "refused").length;
  const refused = s.items.length - waiting;
  const actions = (n: number) => `${n} ${n === 1 ? "action" : "actions"}`;
  const tail = refused > 0 ? ` · ${refused} refused` : "";
  if (s.paused === "signin" && waiting > 0) return `Sign in to send ${actions(waiting)} waiting${tail}`;
  if (s.paused === "terms" && waiting > 0) return `Sign the terms again to send ${actions(waiting)} waiting${tail}`;
  if (s.paused === "account" && waiting > 0) return `Account on hold · ${actions(waiting)} waiting${tail}`;
  if (s.sending && waiting > 0) return `Sending ${s.sending.index} of ${s.sending.total}…${tail}`;
  if (s.offline && waiting > 0) return `Offline · ${actions(waiting)} waiting${tail}`;
  if (waiting > 0) return `${actions(waiting)} waiting${tail}`;
  if (refused > 0) return `${refused} refused`;
  if (s.sent.length > 0) return "All sent";
  return null;
}

/** PendingCounts are the pay estimate's counts the queue will add (dead batteries, moves, recovers). */
export type PendingCounts = { actions: number; deadBatteries: number; moves: number; recovers: number };

/** pendingCounts sums what the queued (not refused) actions add to the pay estimate. */
export function pendingCounts(items: readonly OutboxItem[]): PendingCounts {
  const c: PendingCounts = { actions: 0, deadBatteries: 0, moves: 0, recovers: 0 };
  for (const x of items) {
    const pay = effectOf(x).pay;
    if (!pay) continue;
    c.actions++;
    c.deadBatteries += pay.deadBatteries ?? 0;
    c.moves += pay.moves ?? 0;
    c.recovers += pay.recovers ?? 0;
  }
  return c;
}

/** PendingMovement is a queued action shown in the driver's feed, marked "waiting to send". */
export type PendingMovement = {
  id: string;
  type: string;
  quantity: number;
  notes: string;
  createdAt: string;
  occurredAt: string;
  userId: string;
  user: null;
  goodBatteries?: number;
  deadBatteries?: number;
  pending: true;
};

/** pendingFeed turns the queued movements into feed entries, newest first. */
export function pendingFeed(items: readonly OutboxItem[]): PendingMovement[] {
  const out: PendingMovement[] = [];
  for (const x of items) {
    const feed = effectOf(x).feed;
    if (!feed) continue;
    out.push({
      id: `outbox-${x.key}`,
      ...feed,
      notes: typeof x.body.notes === "string" ? x.body.notes : "",
      createdAt: x.occurredAt,
      occurredAt: x.occurredAt,
      userId: x.userId,
      user: null,
      pending: true,
    });
  }
  return out.reverse();
}
