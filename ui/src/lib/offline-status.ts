import { useSyncExternalStore } from "react";

// Whether the screen shows figures from the offline read cache (lib/offline-cache.ts), and
// from when. Kept tiny: lib/api-client marks reads here, the shell's banner reads it.

let cachedSince = null as number | null;
let browserOffline = typeof navigator !== "undefined" && navigator.onLine === false;
const listeners = new Set<() => void>();
let snapshot: OfflineState = { cachedSince, browserOffline };

function emit() {
  snapshot = { cachedSince, browserOffline };
  for (const l of listeners) l();
}

if (typeof window !== "undefined") {
  window.addEventListener("online", () => {
    browserOffline = false;
    emit();
  });
  window.addEventListener("offline", () => {
    browserOffline = true;
    emit();
  });
  // lib/api-client's getJSON: a read answered by the server
  window.addEventListener("swapbay:fresh-read", () => markFresh());
}

/** markCached records that a read was answered from the cache saved at savedAt (ms). */
export function markCached(savedAt: number): void {
  const next = cachedSince === null ? savedAt : Math.min(cachedSince, savedAt);
  if (next === cachedSince) return;
  cachedSince = next;
  emit();
}

/** markFresh records that a read was answered by the server: the screen is live again. */
export function markFresh(): void {
  if (cachedSince === null) return;
  cachedSince = null;
  emit();
}

/** OfflineState: cachedSince (ms) when figures come from the cache; browserOffline per navigator.onLine. */
export type OfflineState = { cachedSince: number | null; browserOffline: boolean };

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** getOfflineState reads the current state. */
export function getOfflineState(): OfflineState {
  return snapshot;
}

/** useOfflineState follows the offline state. */
export function useOfflineState(): OfflineState {
  return useSyncExternalStore(subscribe, getOfflineState, getOfflineState);
}

/** isOffline: the figures come from the cache, or the browser says it is offline. */
export function isOffline(s: OfflineState): boolean {
  return s.cachedSince !== null || s.browserOffline;
}

/** resetOfflineStateForTests clears the state. */
export function resetOfflineStateForTests(): void {
  cachedSince = null;
  browserOffline = false;
  emit();
}
