import * as React from "react";
import { useLocation } from "react-router";

// Where focus goes when a screen replaces another (WCAG 2.4.3). A form whose answer opens the new
// record's page (Send → the transfer, Create → the user) removes the control that had focus with
// the old screen: focus falls to <body>, a screen reader says nothing of the new page, and the
// next Tab starts from wherever the old control was, which on a phone can be past the new
// screen's last control (focus then leaves the page). After a navigation that lost the focus,
// the new screen's heading takes it: the next Tab reaches the screen's first control.

/** HEADING_WAIT_MS is how long a lazily loaded screen may take to show its heading. */
const HEADING_WAIT_MS = 5_000;

function lost(): boolean {
  return !document.activeElement || document.activeElement === document.body;
}

/** focusHeading focuses main's h1 (made focusable until it loses focus); false when main has none yet. */
function focusHeading(main: HTMLElement): boolean {
  const h = main.querySelector("h1");
  if (!h) return false;
  if (!h.hasAttribute("tabindex")) {
    h.setAttribute("tabindex", "-1");
    h.addEventListener("blur", () => h.removeAttribute("tabindex"), { once: true });
  }
  h.focus();
  return true;
}

/**
 * focusAfterNavigation runs once a navigation has been committed: if nothing has focus, it
 * focuses main's heading, now or when the screen shows one (within HEADING_WAIT_MS, unless
 * something else takes the focus first). It returns a function that stops the wait.
 */
export function focusAfterNavigation(main: HTMLElement): () => void {
  if (!lost() || focusHeading(main)) return () => {};
  const observer = new MutationObserver(() => {
    if (!lost() || focusHeading(main)) stop();
  });
  const timer = window.setTimeout(() => stop(), HEADING_WAIT_MS);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
  }
  observer.observe(main, { childList: true, subtree: true });
  return stop;
}

/**
 * useFocusAfterNavigation applies focusAfterNavigation to main after every change of the route's
 * path (not the first screen: a page load starts with nothing focused, as browsers do). It runs in
 * a timeout, after the old screen's dialogs have returned their focus (Radix does it in one).
 */
export function useFocusAfterNavigation(main: React.RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const first = React.useRef(pathname);
  React.useEffect(() => {
    if (first.current === pathname) return;
    first.current = "";
    let stop = () => {};
    const timer = window.setTimeout(() => {
      if (main.current) stop = focusAfterNavigation(main.current);
    }, 0);
    return () => {
      window.clearTimeout(timer);
      stop();
    };
  }, [pathname, main]);
}
