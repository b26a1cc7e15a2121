import { useEffect, useState } from "react";

// The first screen at / (app/first-screen.ts: the one list the boot script starts) is marked
// shown once the visitor's screen has rendered with its data; what it does not show (the field
// bar, the camera, cards below it) loads after that, when the browser is idle, so that on a phone
// network it never competes with the first screen's own requests (DESIGN.md §10). The mark is
// a User Timing mark: e2e/tests/first-screen-guard.spec.ts counts the requests that start
// before it as the first screen's.

/** FIRST_SCREEN_MARK is the performance mark set when the first screen has rendered. */
export const FIRST_SCREEN_MARK = "swapbay:first-screen";

/** LATEST_MS is when the rest loads anyway (a first screen that never marks itself: an error, a hung call). */
const LATEST_MS = 10_000;

let shown = false;
let after = false;
const waiting = new Set<() => void>();
let failsafe: ReturnType<typeof setTimeout> | undefined;

function runAfter() {
  if (after) return;
  after = true;
  clearTimeout(failsafe);
  for (const f of waiting) f();
  waiting.clear();
}

/** firstScreenShown marks the first screen shown (once) and, when the browser is next idle, loads what waits for it. */
export function firstScreenShown() {
  if (shown) return;
  shown = true;
  performance.mark?.(FIRST_SCREEN_MARK);
  // soon in any case: a busy phone must not leave the rest unloaded (the offline start needs it
  // cached, a repeat visit must not fetch it)
  const idle = window.requestIdleCallback ?? ((f: () => void) => setTimeout(f, 50));
  idle(runAfter, { timeout: 250 });
}

/** afterFirstScreen runs f once the first screen is shown and the browser idle (at once if it was); answers a cancel. */
export function afterFirstScreen(f: () => void): () => void {
  if (after) {
    f();
    return () => undefined;
  }
  waiting.add(f);
  failsafe ??= setTimeout(() => {
    shown = true;
    runAfter();
  }, LATEST_MS);
  return () => waiting.delete(f);
}

/** useAfterFirstScreen answers false until the first screen is shown and the browser idle, then true. */
export function useAfterFirstScreen(): boolean {
  const [ready, setReady] = useState(after);
  useEffect(() => (ready ? undefined : afterFirstScreen(() => setReady(true))), [ready]);
  return ready;
}

/** useFirstScreenShown marks the first screen shown once when is true (a screen calls it when rendered with its data). */
export function useFirstScreenShown(when = true) {
  useEffect(() => {
    if (when) firstScreenShown();
  }, [when]);
}
