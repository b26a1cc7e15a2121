import * as React from "react";

// Where focus goes when a dialog closes (WCAG 2.4.3): Radix returns it to the element that
// had it when the dialog opened. When that element is gone (Mark Done removes the session's
// row) or disabled, Radix's focus() falls through to <body> and a keyboard user starts again
// from the top of the page. useReturnFocus keeps the opener's ancestors instead and focuses
// the first control in the nearest one still on the page, or that ancestor itself.

const TABBABLE =
  'a[href], button:not(:disabled), input:not(:disabled):not([type="hidden"]), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

function usable(el: Element): el is HTMLElement {
  return el instanceof HTMLElement && el.isConnected && !el.matches(":disabled") && el.getClientRects().length > 0;
}

/** fallbackFocus focuses the first control of the nearest connected ancestor in trail (or the ancestor itself). */
export function fallbackFocus(trail: readonly Element[]): HTMLElement | null {
  for (const a of trail) {
    if (!(a instanceof HTMLElement) || !a.isConnected || a === document.body) continue;
    const first = [...a.querySelectorAll(TABBABLE)].find(usable);
    if (first) {
      first.focus();
      return first;
    }
    if (a.getClientRects().length === 0) continue;
    if (!a.hasAttribute("tabindex")) {
      a.setAttribute("tabindex", "-1");
      a.addEventListener("blur", () => a.removeAttribute("tabindex"), { once: true });
    }
    a.focus();
    return a;
  }
  return null;
}

/**
 * useReturnFocus gives a Radix dialog content the onOpenAutoFocus and onCloseAutoFocus that
 * note the opener (Radix calls the first before it moves focus in) and, on close, let Radix
 * return focus to it when it can and otherwise use fallbackFocus. The props' own handlers run first.
 */
export function useReturnFocus(props: { onOpenAutoFocus?: (e: Event) => void; onCloseAutoFocus?: (e: Event) => void }) {
  const trail = React.useRef<Element[]>([]);
  return {
    onOpenAutoFocus: (e: Event) => {
      const chain: Element[] = [];
      for (let el = document.activeElement; el && el !== document.body; el = el.parentElement) chain.push(el);
      trail.current = chain;
      props.onOpenAutoFocus?.(e);
    },
    onCloseAutoFocus: (e: Event) => {
      props.onCloseAutoFocus?.(e);
      if (e.defaultPrevented) return;
      const [opener, ...ancestors] = trail.current;
      if (!opener || usable(opener)) return;
      e.preventDefault();
      fallbackFocus(ancestors);
    },
  };
}
