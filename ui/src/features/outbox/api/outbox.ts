// The driver's durable outbox (DESIGN.md §12, issue 27). Every driver action is written to
// IndexedDB (features/outbox/api/db.ts) with its Idempotency-Key and occurredAt minted at the tap,
// before its first send; then sent in order, by one tab (Web Locks), when the app starts, when
// the connection returns and on a timer with backoff and jitter. The server answers a repeat
// of a key with the first answer, so a send whose answer was lost is simply sent again.
//
// What an answer does to an item (decided by status and `code`, never by the message):
// - 2xx: sent; removed from the store, kept in memory as "sent" for the queue sheet;
// - network error, timeout, 5xx, 408, 429: stays waiting, the round stops, retried later;
// - 401, and a 403 whose code says the account or its terms must be fixed first (account_*,
//   terms_resign_required; docs/errors.md): the queue pauses until the driver has fixed it
//   (signed in, re-signed) and then sends the same keys;
// - any other 4xx (key_expired included): refused with the server's message, kept until the
//   driver taps Discard or Edit & resend (a new key); the rest of the queue goes on.
// Once something is queued the outbox asks for persistent storage (navigator.storage.persist),
// once per page. A tab that is not the sender (Web Locks) tries the lock again on a timer.
// Nothing expires an item: there is no age limit and no cache buster.
import { ApiError, type RefusedPack, apiRequest, refusedPacks } from "@/lib/api-client";
import { isBrowserOffline } from "@/lib/connectivity";
import { newIdempotencyKey } from "@/lib/idempotency";
import { actionOf, allActions } from "@/features/outbox/api/actions";
import * as db from "@/features/outbox/api/db";
import type { OutboxItem, OutboxKind } from "@/features/outbox/api/db";

export type { OutboxItem, OutboxKind } from "@/features/outbox/api/db";

/** StoredItem is an item with its queue position. */
export type StoredItem = OutboxItem & { seq: number };

/** SentItem is an item sent during this session (the sheet lists them as sent). */
export type SentItem = StoredItem & { sentAt: string };

/** MAX_PHOTO_BYTES caps the photos of one account waiting in the outbox (50 MB in all). */
export const MAX_PHOTO_BYTES = 50 * 1024 * 1024;

/** OUTBOX_FULL is the message when a photo would take the outbox past MAX_PHOTO_BYTES. */
export const OUTBOX_FULL =
  "The outbox is full: 50 MB of photos are waiting to be sent. Connect to send them, or discard some, before adding more.";

/** SEND_TIMEOUT_MS bounds one JSON request; PUT_TIMEOUT_MS one photo's bytes. */
export const SEND_TIMEOUT_MS = 30_000;
export const PUT_TIMEOUT_MS = 120_000;

/** Backoff between rounds after a failure: 2 s doubling to 5 min, ±30% jitter. */
export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 5 * 60_000;
/** IDLE_CHECK_MS: with items waiting and no failure scheduled, a round at least this often. */
export const IDLE_CHECK_MS = 60_000;

const LOCK_NAME = "swapbay-outbox-sender";
const CHANNEL = "swapbay-outbox";

/** LOCK_RETRY_MS: a tab that found another tab sending tries the lock again this often. */
export const LOCK_RETRY_MS = 5_000;

/** PERSIST_KEY is where the answer to navigator.storage.persist() is kept (/mobile-debug shows it). */
export const PERSIST_KEY = "swapbay-outbox-persist";

/** Verdict is what an error means for the item that met it: retry later, pause the queue, or refuse the item. */
export type Verdict = "retry" | "pause" | "refused";

/** PauseReason: the driver must sign in, sign the terms again, or have the account fixed. */
export type PauseReason = "signin" | "terms" | "account";

/** pauseReason is why an answer pauses the queue, or null when it does not. */
export function pauseReason(error: unknown): PauseReason | null {
  const status = error instanceof ApiError || error instanceof TransportError ? error.status : 0;
  const code = (error instanceof ApiError || error instanceof TransportError ? error.code : undefined) ?? "";
  if (status === 401) return "signin";
  if (status === 403 && code === "terms_resign_required") return "terms";
  if (status === 403 && code.startsWith("account_")) return "account";
  return null;
}

/** TransportError is a failed send outside apiRequest, e.g. a photo's PUT (its status, 0 for a network error). */
export class TransportError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * classify decides by status and code (never the message) what an error does to its item.
 * Anything that is not an answer (network error, timeout, abort) is retried.
 */
export function classify(error: unknown): Verdict {
  const status = error instanceof ApiError || error instanceof TransportError ? error.status : 0;
  if (status === 0) return "retry";
  if (pauseReason(error)) return "pause";
  if (status >= 500 || status === 408 || status === 429) return "retry";
  return "refused";
}

/**
 * KEY_REUSED is what the queue shows for a 409 idempotency_key_reused (decided by the code): the
 * server's message names a header a driver has never seen. The item is kept, refused, with
 * Discard and Edit & resend (a new key), never dropped.
 */
export const KEY_REUSED =
  "This action was already sent once with other details, so it was not recorded again. Check your activity: Discard it if it is there, or Edit & resend it.";

function refusal(error: unknown): { message: string; code?: string; packs?: RefusedPack[] } {
  const code = error instanceof ApiError || error instanceof TransportError ? error.code : undefined;
  if (code === "idempotency_key_reused") return { message: KEY_REUSED, code };
  if (error instanceof ApiError) {
    const packs = refusedPacks(error.data);
    return { message: error.serverMessage.trim() || `Refused (${error.status})`, code: error.code || undefined, ...(packs.length > 0 ? { packs } : {}) };
  }
  if (error instanceof TransportError) return { message: error.message, code: error.code };
  return { message: error instanceof Error ? error.message : String(error) };
}

/** backoffMs is the wait before round attempt (1-based) after failures, with jitter. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.7 + 0.6 * random()));
}

/** Outcome is what became of an item a form submitted, as far as it waited. */
export type Outcome = { status: "sent"; answer: unknown } | { status: "refused"; error: unknown } | { status: "queued" };

/** OutboxSnapshot is what the UI shows. */
export type OutboxSnapshot = {
  /** items: this user's stored items in queue order. */
  items: StoredItem[];
  /** sent: items sent during this session, newest last. */
  sent: SentItem[];
  /** sending: the round in progress (1-based index of the item being sent, of total). */
  sending: { index: number; total: number } | null;
  /** paused: why the queue waits for the driver (sign in, re-sign the terms, account), or null. */
  paused: PauseReason | null;
  /** offline: the browser says so, or the last send met a network error. */
  offline: boolean;
  /** ready: the store has been read once. */
  ready: boolean;
  /**
   * others: items stored on this phone by other accounts (a shared phone, a driver signed out,
   * suspended or deleted): never sent under this session, shown so that none waits unseen.
   */
  others: number;
};

/** Sender sends one item; tests replace it. */
export type Sender = (item: StoredItem) => Promise<unknown>;

/** Hooks are told about sent items (the app refreshes its figures) and pauses (the app checks the session). */
export type Hooks = { onSent?: (item: StoredItem, answer: unknown) => void; onPause?: (reason: PauseReason) => void };

let userId: string | null = null;
let snapshot: OutboxSnapshot = { items: [], sent: [], sending: null, paused: null, offline: false, ready: false, others: 0 };
const listeners = new Set<() => void>();
let sender: Sender = sendItem;
let hooks: Hooks = {};
let flushing = false;
let again = false;
let failures = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
let channel: BroadcastChannel | undefined;
let started = false;
const waiters = new Map<number, (o: Outcome) => void>();
/** claimed: items whose submitting form takes an immediate refusal itself. */
const claimed = new Set<number>();

function emit(p: Partial<OutboxSnapshot>) {
  snapshot = { ...snapshot, ...p };
  for (const l of listeners) l();
}

/** subscribe and getSnapshot feed useSyncExternalStore. */
export function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
export function getSnapshot(): OutboxSnapshot {
  return snapshot;
}

const browserOffline = isBrowserOffline;

async function reload(): Promise<void> {
  const all = await db.allItems();
  emit({ items: all.filter((x) => x.userId === userId), others: all.filter((x) => x.userId !== userId).length, ready: true, offline: snapshot.offline || browserOffline() });
}

function broadcast(msg: "changed" | "enqueued") {
  try {
    channel?.postMessage(msg);
  } catch {
    // a closed channel: the other tabs reload on their own timer
  }
}

/**
 * start runs the outbox for the signed-in user: reads the store, sends what waits, and
 * listens for the connection, other tabs and the timer. Calling it again with another user
 * switches to that user's items; with null it stops sending.
 */
export function start(forUser: string | null, opts: { sender?: Sender; hooks?: Hooks } = {}): void {
  if (opts.sender) sender = opts.sender;
  if (opts.hooks) hooks = opts.hooks;
  const changed = forUser !== userId;
  userId = forUser;
  // a (re)start is a sign-in or a session fixed (terms signed): a pause ends, the same keys are sent
  emit(changed ? { items: [], sent: [], paused: null, ready: false, others: 0 } : { paused: null });
  if (!started && typeof window !== "undefined") {
    started = true;
    window.addEventListener("online", () => {
      failures = 0;
      emit({ offline: false });
      void flush();
    });
    window.addEventListener("offline", () => emit({ offline: true }));
    if (typeof BroadcastChannel !== "undefined") {
      channel = new BroadcastChannel(CHANNEL);
      channel.onmessage = (ev) => {
        void reload();
        if (ev.data === "enqueued") void flush();
      };
    }
  }
  if (!userId) return;
  void migrateOnce()
    .then(reload)
    .then(() => flush());
}

let migrated: Promise<void> | undefined;

/** migrateOnce runs each registered action's migrate once per page, before the first round. */
function migrateOnce(): Promise<void> {
  migrated ??= Promise.all(allActions().map((a) => a.migrate?.().catch(() => undefined))).then(() => undefined);
  return migrated;
}

/** resume lifts a pause (the driver signed in again, re-signed) and sends, with the same keys. */
export function resume(): void {
  emit({ paused: null });
  failures = 0;
  void flush();
}

function photoBytes(items: readonly OutboxItem[]): number {
  return items.reduce((n, x) => n + (x.bytes ?? 0), 0);
}

/** OutboxFullError is thrown when a photo does not fit in MAX_PHOTO_BYTES. */
export class OutboxFullError extends Error {
  constructor() {
    super(OUTBOX_FULL);
  }
}

/**
 * Part is an action stored with another, before it and in the same transaction (a damage
 * report's photos): a round never sees one without the other.
 */
export type Part = { kind: OutboxKind; body: Record<string, unknown>; blob?: Blob; key?: string };

/** Extra is how an action is stored: its bytes, a key or time minted earlier, the parts stored before it. */
export type Extra = { blob?: Blob; key?: string; occurredAt?: string; parts?: readonly Part[] };

/**
 * store writes one action (after its parts), each minted now (key and occurredAt) unless given;
 * it returns the action's seq once durable.
 */
async function store(kind: OutboxKind, body: Record<string, unknown>, extra: Extra): Promise<number> {
  const forUser = userId;
  if (!forUser) throw new Error("Not signed in");
  const occurredAt = extra.occurredAt ?? new Date().toISOString();
  const items = [...(extra.parts ?? []), { kind, body, blob: extra.blob, key: extra.key }].map(
    (x): OutboxItem => ({
      key: x.key ?? newIdempotencyKey(),
      kind: x.kind,
      userId: forUser,
      body: x.body,
      occurredAt,
      status: "waiting",
      attempts: 0,
      ...(x.blob ? { blob: x.blob, bytes: x.blob.size } : {}),
    }),
  );
  for (const x of items) if (!actionOf(x.kind)) throw new Error(`Unknown driver action: ${x.kind}`);
  const adding = photoBytes(items);
  // this account's photos only: another account's (a driver signed out or deleted on a shared
  // phone) are not this driver's to send or discard
  if (adding > 0 && photoBytes((await db.allItems()).filter((x) => x.userId === forUser)) + adding > MAX_PHOTO_BYTES) throw new OutboxFullError();
  const seq = await db.addItems(items);
  await reload();
  broadcast("enqueued");
  void askPersistence();
  return seq;
}

/**
 * enqueue stores one action, minted now (key and occurredAt), and starts sending. It
 * resolves once the item is durable, with its seq.
 */
export async function enqueue(kind: OutboxKind, body: Record<string, unknown>, extra: Extra = {}): Promise<number> {
  const seq = await store(kind, body, extra);
  void flush();
  return seq;
}

/**
 * submit enqueues an action (after its parts, which are sent first like any item) and waits for its first send: 'sent' with the answer, 'refused'
 * with the error (the item is then removed: the form that submitted it shows the refusal and
 * keeps its values), or 'queued' when it could not be sent now (offline, server down, another
 * tab sending, a 401, or waitMs passed): it stays in the outbox and goes later.
 */
export async function submit(kind: OutboxKind, body: Record<string, unknown>, extra: Extra & { waitMs?: number } = {}): Promise<Outcome> {
  const seq = await store(kind, body, extra);
  claimed.add(seq);
  const outcome = new Promise<Outcome>((resolve) => {
    waiters.set(seq, resolve);
    setTimeout(() => settle(seq, { status: "queued" }), extra.waitMs ?? 20_000);
  });
  void flush();
  const o = await outcome;
  claimed.delete(seq);
  return o;
}

function settle(seq: number, o: Outcome) {
  const w = waiters.get(seq);
  if (!w) return;
  waiters.delete(seq);
  w(o);
}

function settleAllQueued() {
  for (const seq of [...waiters.keys()]) settle(seq, { status: "queued" });
}

/** discard removes an item at the driver's tap (refused or waiting). */
export async function discard(seq: number): Promise<void> {
  await db.deleteItem(seq);
  await reload();
  broadcast("changed");
}

/**
 * resend puts a refused item back in the queue, at its place, with a new key and the body as
 * edited (Edit & resend); occurredAt stays the tap's time.
 */
export async function resend(seq: number, body: Record<string, unknown>): Promise<void> {
  const item = (await db.allItems()).find((x) => x.seq === seq);
  if (!item) return;
  await db.putItem({ ...item, body, key: newIdempotencyKey(), status: "waiting", attempts: 0, error: undefined, code: undefined, uploaded: undefined });
  await reload();
  broadcast("enqueued");
  void flush();
}

let persistAsked = false;

/**
 * askPersistence asks once per page, when something is queued, that the browser never evicts
 * the outbox's storage; the answer is kept for /mobile-debug (persistenceAnswer).
 */
async function askPersistence(): Promise<void> {
  if (persistAsked || typeof navigator === "undefined" || !navigator.storage?.persist) return;
  persistAsked = true;
  try {
    const granted = (await navigator.storage.persisted?.()) || (await navigator.storage.persist());
    localStorage.setItem(PERSIST_KEY, JSON.stringify({ granted, at: new Date().toISOString() }));
  } catch {
    // storage unavailable (private mode): nothing to keep
  }
}

/** persistenceAnswer is the last answer to the persistence request on this browser, or null if never asked. */
export function persistenceAnswer(): { granted: boolean; at: string } | null {
  try {
    const raw = localStorage.getItem(PERSIST_KEY);
    return raw ? (JSON.parse(raw) as { granted: boolean; at: string }) : null;
  } catch {
    return null;
  }
}

let lockTimer: ReturnType<typeof setTimeout> | undefined;

function retryLockLater() {
  if (lockTimer) return;
  lockTimer = setTimeout(() => {
    lockTimer = undefined;
    void flush();
  }, LOCK_RETRY_MS);
}

function schedule(ms: number) {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = undefined;
    void flush();
  }, ms);
}

async function withLock(run: () => Promise<void>): Promise<void> {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (locks?.request) {
    await locks.request(LOCK_NAME, { ifAvailable: true }, async (lock) => {
      if (lock) await run();
      else {
        // another tab sends: it broadcasts what changes, this tab shows it and, while items of
        // this user wait, tries the lock again on a timer (the sender may close)
        settleAllQueued();
        if (snapshot.items.some((x) => x.status !== "refused")) retryLockLater();
      }
    });
    return;
  }
  // no Web Locks (old Safari): this tab sends; a second tab sending too is still safe, as
  // the server answers a repeated key with its first answer
  await run();
}

/**
 * flush sends the waiting items in order, one round; one round at a time per tab, one tab at
 * a time (Web Locks). A request while a round runs makes another round follow.
 */
export async function flush(): Promise<void> {
  if (!userId || snapshot.paused) {
    settleAllQueued();
    return;
  }
  if (flushing) {
    again = true;
    return;
  }
  flushing = true;
  try {
    do {
      again = false;
      await withLock(round);
    } while (again && !snapshot.paused);
  } finally {
    flushing = false;
    emit({ sending: null });
    settleAllQueued();
  }
}

async function round(): Promise<void> {
  const all = await db.allItems();
  const mine = all.filter((x) => x.userId === userId);
  const todo = mine.filter((x) => x.status !== "refused");
  emit({ items: mine, others: all.length - mine.length });
  if (todo.length > 0 && browserOffline()) {
    // the browser knows it has no network: no request, the 'online' event starts the next round
    again = false;
    emit({ offline: true });
    failures++;
    schedule(backoffMs(failures));
    return;
  }
  let index = 0;
  for (const listed of todo) {
    index++;
    // read again: an earlier send may have added to it (a photo's id kept on its report), and
    // another tab may have discarded it
    const item = await db.getItem(listed.seq);
    if (!item || item.status === "refused") continue;
    emit({ sending: { index, total: todo.length } });
    const live: StoredItem = { ...item, status: "sending", attempts: item.attempts + 1 };
    await db.putItem(live);
    await reload();
    try {
      const answer = await sender(live);
      await db.deleteItem(item.seq);
      failures = 0;
      emit({ offline: false, sent: [...snapshot.sent, { ...live, sentAt: new Date().toISOString() }].slice(-50) });
      await reload();
      broadcast("changed");
      hooks.onSent?.(live, answer);
      settle(item.seq, { status: "sent", answer });
    } catch (error) {
      const verdict = classify(error);
      if (verdict === "refused") {
        if (claimed.has(item.seq) && waiters.has(item.seq)) {
          // the form that submitted it is open and shows the refusal itself
          await db.deleteItem(item.seq);
        } else {
          const r = refusal(error);
          // as stored now: the send may have kept something on it (a photo's upload)
          const now = (await db.getItem(item.seq)) ?? live;
          await db.putItem({ ...now, status: "refused", error: r.message, code: r.code, packs: r.packs });
        }
        await reload();
        broadcast("changed");
        settle(item.seq, { status: "refused", error });
        continue;
      }
      const now = await db.getItem(item.seq);
      if (now) await db.putItem({ ...now, status: "waiting" });
      // a failure ends the flush: the timer (or the 'online' event, or a sign-in) starts the next
      again = false;
      const reason = pauseReason(error);
      if (reason) {
        emit({ paused: reason });
        hooks.onPause?.(reason);
      } else {
        failures++;
        emit({ offline: !(error instanceof ApiError || error instanceof TransportError) || browserOffline() });
        schedule(backoffMs(failures));
      }
      await reload();
      broadcast("changed");
      return;
    }
  }
  if (snapshot.items.some((x) => x.status === "waiting")) schedule(IDLE_CHECK_MS);
}

/** bodyOf is the JSON body an item sends: its fields and the tap's time. */
export function bodyOf(item: OutboxItem): Record<string, unknown> {
  return { ...item.body, occurredAt: item.occurredAt };
}

/** UNKNOWN_KIND is the refusal of an item whose kind this version of the app does not know. */
export const UNKNOWN_KIND = "This version of the app cannot send this action. Discard it, or ask an admin.";

/**
 * sendItem is the real sender: the item's registered action sends it, by its own send or as
 * one keyed POST of its body and the tap's time to its url.
 */
export async function sendItem(item: StoredItem): Promise<unknown> {
  const action = actionOf(item.kind);
  if (action?.send) return action.send(item);
  if (!action?.url) throw new TransportError(400, UNKNOWN_KIND, "unknown_kind");
  return apiRequest("POST", action.url, bodyOf(item), {
    idempotencyKey: item.key,
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
}

/** resetForTests forgets all module state. */
export function resetForTests(): void {
  userId = null;
  snapshot = { items: [], sent: [], sending: null, paused: null, offline: false, ready: false, others: 0 };
  sender = sendItem;
  hooks = {};
  flushing = false;
  again = false;
  failures = 0;
  if (timer) clearTimeout(timer);
  timer = undefined;
  if (lockTimer) clearTimeout(lockTimer);
  lockTimer = undefined;
  persistAsked = false;
  migrated = undefined;
  waiters.clear();
  claimed.clear();
}
