import { useSyncExternalStore } from "react";
import { type OutboxItem, type OutboxSnapshot, getSnapshot, subscribe } from "@/lib/outbox/outbox";
import { batteryCount } from "@/lib/format";

/** useOutbox follows the outbox (items, round in progress, pause, offline). */
export function useOutbox(): OutboxSnapshot {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

/** itemLabel names a queued action for the queue sheet. */
export function itemLabel(item: OutboxItem): string {
  const b = item.body;
  switch (item.kind) {
    case "pickup":
      return `Pickup · ${batteryCount(num(b.quantity))}`;
    case "dropoff":
      return `Dropoff · ${num(b.goodBatteries)} good, ${num(b.deadBatteries)} dead`;
    case "rebalance":
      return `Moves · ${num(b.quantity)}`;
    case "retrieves_repairs_dropoff":
      return `Recovers · ${num(b.quantity)}`;
    case "photo":
      return `Photo · ${typeof b.filename === "string" ? b.filename : "photo"}`;
  }
}

/** holdingsDelta is how queued actions change the batteries the driver holds. */
export function holdingsDelta(items: readonly OutboxItem[]): number {
  let d = 0;
  for (const x of items) {
    if (x.status === "refused") continue;
    if (x.kind === "pickup") d += num(x.body.quantity);
    if (x.kind === "dropoff") d -= num(x.body.goodBatteries) + num(x.body.deadBatteries);
  }
  return d;
}

/** statusLine is the driver header's line for the queue, or null when there is nothing to say. */
export function statusLine(s: Pick<OutboxSnapshot, "items" | "sent" | "sending" | "paused" | "offline">): string | null {
  const waiting = s.items.filter((x) => x.status !== "refused").length;
  const refused = s.items.length - waiting;
  const actions = (n: number) => `${n} ${n === 1 ? "action" : "actions"}`;
  const tail = refused > 0 ? ` · ${refused} refused` : "";
  if (s.paused && waiting > 0) return `Sign in to send ${actions(waiting)} waiting${tail}`;
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
    if (x.status === "refused" || x.kind === "photo") continue;
    c.actions++;
    if (x.kind === "dropoff") c.deadBatteries += num(x.body.deadBatteries);
    if (x.kind === "rebalance") c.moves += num(x.body.quantity);
    if (x.kind === "retrieves_repairs_dropoff") c.recovers += num(x.body.quantity);
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
    if (x.status === "refused" || x.kind === "photo") continue;
    const good = num(x.body.goodBatteries);
    const dead = num(x.body.deadBatteries);
    out.push({
      id: `outbox-${x.key}`,
      type: x.kind,
      quantity: x.kind === "dropoff" ? good + dead : num(x.body.quantity),
      notes: typeof x.body.notes === "string" ? x.body.notes : "",
      createdAt: x.occurredAt,
      occurredAt: x.occurredAt,
      userId: x.userId,
      user: null,
      ...(x.kind === "dropoff" ? { goodBatteries: good, deadBatteries: dead } : {}),
      pending: true,
    });
  }
  return out.reverse();
}
