// The service worker's registration and the "A new version is available" prompt (DESIGN.md
// §12). Loaded by the signed-in shell after the first screen, never by the sign-in chunk.
// The app checks for a new version on navigation (at most once a minute) and every 15
// minutes; a new version waits until the user taps Reload, and a reload another tab started
// is not applied under a half-filled form.
import { useSyncExternalStore } from "react";
import { registerSW } from "virtual:pwa-register";

/** UPDATE_CHECK_MS: how often an open app asks for a new version. */
export const UPDATE_CHECK_MS = 15 * 60_000;
/** NAVIGATION_CHECK_MIN_MS: the least time between two checks made on navigation. */
export const NAVIGATION_CHECK_MIN_MS = 60_000;

let registration: ServiceWorkerRegistration | undefined;
let updateSW: ((reload?: boolean) => Promise<void>) | undefined;
let needRefresh = false;
let reloading = false;
let lastCheck = 0;
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

/**
 * hasHalfFilledForm reports whether the page holds a form with typed text: a reload would
 * lose it. Text fields of forms and of open dialogs count; checkboxes and file pickers not.
 */
export function hasHalfFilledForm(root: ParentNode = document): boolean {
  const fields = root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
    "form input:not([type=hidden]):not([type=file]):not([type=checkbox]):not([type=radio]):not([type=submit]), form textarea, [role=dialog] textarea, [role=dialog] input[type=number]",
  );
  return [...fields].some((f) => f.value.trim() !== "");
}

/** startServiceWorker registers /sw.js once (no-op where service workers are missing). */
export function startServiceWorker(): void {
  if (updateSW || typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  updateSW = registerSW({
    immediate: true,
    onNeedRefresh() {
      needRefresh = true;
      emit();
    },
    // the new version took over (this tab's Reload, or another tab's): reload unless a form
    // is half filled; then the prompt stays until the user taps Reload
    onNeedReload() {
      if (reloading || !hasHalfFilledForm()) window.location.reload();
      else {
        needRefresh = true;
        emit();
      }
    },
    onRegisteredSW(_url, reg) {
      registration = reg;
      if (reg) setInterval(() => void checkForUpdate(true), UPDATE_CHECK_MS);
    },
  });
}

/** checkForUpdate asks the server for a new sw.js (on navigation: at most once a minute). */
export async function checkForUpdate(force = false): Promise<void> {
  if (!registration) return;
  const now = Date.now();
  if (!force && now - lastCheck < NAVIGATION_CHECK_MIN_MS) return;
  lastCheck = now;
  if (typeof navigator !== "undefined" && navigator.onLine === false) return;
  try {
    await registration.update();
  } catch {
    // offline or the server is away: the next check tries again
  }
}

/** applyUpdate activates the waiting version; the page reloads once it controls the tab. */
export function applyUpdate(): void {
  reloading = true;
  if (registration?.waiting) void updateSW?.(true);
  else window.location.reload();
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** useUpdateAvailable reports whether a new version waits for Reload. */
export function useUpdateAvailable(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => needRefresh,
    () => false,
  );
}
