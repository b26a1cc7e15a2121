/**
 * The realtime link's state, as the refresh rules need it (lib/invalidation.ts afterWrite):
 * whether it is open right now (a write's own answer then updates the figures, and the change
 * notification that follows refetches the rest once) and when the last change notification
 * arrived. Set by connectRealtime.
 */
let open = false;
let lastEvent = 0;

/** isRealtimeOpen reports whether change notifications are arriving. */
export function isRealtimeOpen(): boolean {
  return open;
}

/** setRealtimeOpen records the link's state (connectRealtime calls it on open and close). */
export function setRealtimeOpen(value: boolean): void {
  open = value;
}

/** lastRealtimeEventAt is when (ms) the last change notification arrived (0: none yet). */
export function lastRealtimeEventAt(): number {
  return lastEvent;
}

/** markRealtimeEvent records that a change notification arrived now. */
export function markRealtimeEvent(): void {
  lastEvent = Date.now();
}
