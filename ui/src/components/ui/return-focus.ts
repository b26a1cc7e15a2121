import * as React from "react";

// Where focus goes when a dialog closes (WCAG 2.4.3): back to the element that had it when the
// dialog opened. Radix returns it only to a DialogTrigger, and when the opener is gone (Mark
// Done removes the session's row) or disabled, focus falls through to <body> and a keyboard
// user starts again from the top of the page. useReturnFocus notes the opener and its
// ancestors: it focuses the opener again, or the first control in the nearest ancestor still
// on the page, or that ancestor itself.

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
 * note the opener (Radix calls the first before it moves focus in) and, on close, focus it
 * again when it can and otherwise use fallbackFocus. The props' own handlers run first.
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
      // Radix's own handler focuses only a DialogTrigger; these dialogs are opened by a form's
      // submit, a menu item or a row's button, so without this focus fell to <body>
      e.preventDefault();
      const [opener, ...ancestors] = trail.current;
      if (!opener) return;
      if (usable(opener)) opener.focus();
      else fallbackFocus(ancestors);
    },
  };
}
