/**
 * realtimeOpen reports whether the realtime link is open right now: a write's own answer
 * then updates the figures, and the change notification that follows refetches the rest
 * once (lib/invalidation.ts afterWrite). Set by connectRealtime.
 */
let open = false;

/** isRealtimeOpen reports whether change notifications are arriving. */
export function isRealtimeOpen(): boolean {
  return open;
}

/** setRealtimeOpen records the link's state (connectRealtime calls it on open and close). */
export function setRealtimeOpen(value: boolean): void {
  open = value;
}
