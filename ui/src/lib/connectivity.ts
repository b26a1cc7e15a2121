import { useSyncExternalStore } from "react";

// The one connectivity store: what the app knows about its link to the server. The browser's
// own online/offline flag; since when the screen shows figures from the offline read cache
// (lib/offline-cache.ts marks it, lib/api-client's fresh reads clear it); whether the
// realtime link is open and when its last change notification arrived (lib/realtime.ts sets
// them; lib/invalidation.ts reads them). The shell's offline banner, the outbox and the
// refresh rules all read it here.

/** Connectivity is the store's state. */
export type Connectivity = {
  /** cachedSince: ms of the oldest cached answer on screen, null when the figures are live. */
  cachedSince: number | null;
  /** browserOffline: navigator.onLine says there is no network. */
  browserOffline: boolean;
  /** realtimeOpen: the realtime link is open (change notifications arrive). */
  realtimeOpen: boolean;
  /** lastEventAt: ms when the last change notification arrived (0: none yet). */
  lastEventAt: number;
};

/** isBrowserOffline reads navigator.onLine now (false where there is no navigator). */
export function isBrowserOffline(): boolean {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

const initial = (): Connectivity => ({ cachedSince: null, browserOffline: isBrowserOffline(), realtimeOpen: false, lastEventAt: 0 });
let state: Connectivity = initial();
const listeners = new Set<() => void>();

function set(p: Partial<Connectivity>) {
  const next = { ...state, ...p };
  if ((Object.keys(p) as (keyof Connectivity)[]).every((k) => next[k] === state[k])) return;
  state = next;
  for (const l of listeners) l();
}

if (typeof window !== "undefined") {
  window.addEventListener("online", () => set({ browserOffline: false }));
  window.addEventListener("offline", () => set({ browserOffline: true }));
  // lib/api-client's getJSON: a read answered by the server
  window.addEventListener("swapbay:fresh-read", () => markFresh());
}

/** markCached records that a read was answered from the cache saved at savedAt (ms). */
export function markCached(savedAt: number): void {
  set({ cachedSince: state.cachedSince === null ? savedAt : Math.min(state.cachedSince, savedAt) });
}

/** markFresh records that a read was answered by the server: the screen is live again. */
export function markFresh(): void {
  set({ cachedSince: null });
}

/** setRealtimeOpen records the realtime link's state (connectRealtime calls it on open and close). */
export function setRealtimeOpen(value: boolean): void {
  set({ realtimeOpen: value });
}

/** isRealtimeOpen reports whether change notifications are arriving. */
export function isRealtimeOpen(): boolean {
  return state.realtimeOpen;
}

/** markRealtimeEvent records that a change notification arrived now. */
export function markRealtimeEvent(): void {
  set({ lastEventAt: Date.now() });
}

/** lastRealtimeEventAt is when (ms) the last change notification arrived (0: none yet). */
export function lastRealtimeEventAt(): number {
  return state.lastEventAt;
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** getConnectivity reads the current state. */
export function getConnectivity(): Connectivity {
  return state;
}

/** useConnectivity follows the store. */
export function useConnectivity(): Connectivity {
  return useSyncExternalStore(subscribe, getConnectivity, getConnectivity);
}

/** isOffline: the figures come from the cache, or the browser says it is offline. */
export function isOffline(s: Pick<Connectivity, "cachedSince" | "browserOffline">): boolean {
  return s.cachedSince !== null || s.browserOffline;
}

/** resetConnectivityForTests clears the state. */
export function resetConnectivityForTests(): void {
  state = { ...initial(), browserOffline: false };
  for (const l of listeners) l();
}
