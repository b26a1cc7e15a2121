// The service worker's registration and the "A new version is available" prompt (DESIGN.md
// §12). Loaded by the signed-in shell after the first screen, never by the sign-in chunk.
// The app checks for a new version on navigation (at most once a minute) and every 15
// minutes; a new version waits until the user taps Reload, and a reload another tab started
// is not applied under a half-filled form.
import { useSyncExternalStore } from "react";
import { isBrowserOffline } from "@/lib/connectivity";

/** UPDATE_CHECK_MS: how often an open app asks for a new version. */
export const UPDATE_CHECK_MS = 15 * 60_000;
/** NAVIGATION_CHECK_MIN_MS: the least time between two checks made on navigation. */
export const NAVIGATION_CHECK_MIN_MS = 60_000;

let registration: ServiceWorkerRegistration | undefined;
let started = false;
let needRefresh = false;
let reloading = false;
let lastCheck = 0;
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

const FIELDS =
  "form input:not([type=hidden]):not([type=file]):not([type=checkbox]):not([type=radio]):not([type=submit]), form textarea, [role=dialog] textarea, [role=dialog] input[type=number]";

/** before: each field's value when the user first focused it (what it loaded with). */
let before = new WeakMap<Element, string>();

if (typeof document !== "undefined") {
  document.addEventListener(
    "focusin",
    (e) => {
      const t = e.target;
      if ((t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement) && !before.has(t)) before.set(t, t.value);
    },
    true,
  );
  // a form that was sent (or reset) holds nothing unsent: its fields start over at the next
  // focus (whether the app then empties it, as the driver forms do, or keeps what was saved)
  document.addEventListener("submit", (e) => e.target instanceof HTMLFormElement && forget(e.target), true);
  document.addEventListener("reset", (e) => e.target instanceof HTMLFormElement && forget(e.target), true);
}

/** fieldsOf lists form's fields (FIELDS' "form …" selectors match from the document, not the form). */
function fieldsOf(form: HTMLFormElement): (HTMLInputElement | HTMLTextAreaElement)[] {
  return [...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(FIELDS)].filter((f) => form.contains(f));
}

function forget(form: HTMLFormElement) {
  for (const f of fieldsOf(form)) before.delete(f);
}


/**
 * hasHalfFilledForm reports whether the page holds a form the user edited and has not sent:
 * a reload would lose it. A field counts when its text differs from what it held when the
 * user first went into it — a form that loaded filled (the settings, an edit dialog) and was
 * not touched does not. Text fields of forms and of open dialogs count; checkboxes and file
 * pickers not.
 */
export function hasHalfFilledForm(root: ParentNode = document): boolean {
  const fields = root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(FIELDS);
  return [...fields].some((f) => {
    const start = before.get(f);
    return start !== undefined && f.value.trim() !== start.trim();
  });
}

/** resetEditsForTests forgets which fields were edited. */
export function resetEditsForTests(): void {
  before = new WeakMap();
}

/**
 * startServiceWorker registers /sw.js once (no-op where service workers are missing). A new
 * version that finished installing while a version controls the page waits for Reload; when
 * a new version takes over (this tab's Reload, or another tab's), the page reloads unless a
 * form is half filled (then the prompt stays). The first install takes the page silently.
 */
export function startServiceWorker(): void {
  if (started || typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  started = true;
  const sw = navigator.serviceWorker;
  let hadController = !!sw.controller;
  sw.addEventListener("controllerchange", () => {
    if (!hadController) {
      hadController = true; // the first install claimed the page: nothing to reload
      return;
    }
    if (reloading || !hasHalfFilledForm()) window.location.reload();
    else offer();
  });
  sw.register("/sw.js", { scope: "/" })
    .then((reg) => {
      registration = reg;
      const watch = (worker: ServiceWorker | null) => {
        if (!worker) return;
        const onState = () => {
          if (worker.state === "installed" && sw.controller) offer();
        };
        worker.addEventListener("statechange", onState);
        onState();
      };
      if (reg.waiting && sw.controller) offer();
      watch(reg.installing);
      reg.addEventListener("updatefound", () => watch(reg.installing));
      setInterval(() => void checkForUpdate(true), UPDATE_CHECK_MS);
    })
    .catch(() => undefined);
}

function offer() {
  if (needRefresh) return;
  needRefresh = true;
  emit();
}

/** checkForUpdate asks the server for a new sw.js (on navigation: at most once a minute). */
export async function checkForUpdate(force = false): Promise<void> {
  if (!registration) return;
  const now = Date.now();
  if (!force && now - lastCheck < NAVIGATION_CHECK_MIN_MS) return;
  lastCheck = now;
  if (isBrowserOffline()) return;
  try {
    await registration.update();
  } catch {
    // offline or the server is away: the next check tries again
  }
}

/** applyUpdate activates the waiting version; the page reloads once it controls the tab. */
export function applyUpdate(): void {
  reloading = true;
  const waiting = registration?.waiting;
  // the worker's SKIP_WAITING handler activates it; it claims the page (controllerchange above)
  if (waiting) waiting.postMessage({ type: "SKIP_WAITING" });
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
