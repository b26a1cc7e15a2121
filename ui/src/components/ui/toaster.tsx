import {
  TOAST_DURATION,
  Toast,
  ToastClose,
  ToastDescription,
  ToastProvider,
  ToastTitle,
  ToastViewport,
} from "@/components/ui/toast";
import { useToast } from "@/hooks/use-toast";
import * as React from "react";

/**
 * useToastClearance keeps keyboard focus out from under the toasts (WCAG 2.2 SC 2.4.11): while
 * a toast shows, the page's scroll padding on the toasts' edge (top on phones, bottom from
 * 640 px) is their height, so a control that Tab brings into view is scrolled clear of them.
 */
function useToastClearance(viewport: React.RefObject<HTMLOListElement | null>) {
  React.useEffect(() => {
    const ol = viewport.current;
    if (!ol) return;
    const html = document.documentElement;
    const update = () => {
      const shown = ol.querySelector("li") !== null;
      const r = ol.getBoundingClientRect();
      const atTop = r.top < window.innerHeight / 2;
      html.style.scrollPaddingTop = shown && atTop ? `${Math.ceil(r.bottom)}px` : "";
      html.style.scrollPaddingBottom = shown && !atTop ? `${Math.ceil(window.innerHeight - r.top)}px` : "";
    };
    const resize = new ResizeObserver(update);
    resize.observe(ol);
    const children = new MutationObserver(update);
    children.observe(ol, { childList: true, attributes: true, attributeFilter: ["class"] });
    update();
    return () => {
      resize.disconnect();
      children.disconnect();
      html.style.scrollPaddingTop = "";
      html.style.scrollPaddingBottom = "";
    };
  }, [viewport]);
}

/**
 * useToastDodge moves the toasts to the opposite edge when keyboard focus is on something under
 * them (SC 2.4.11): near the top or the end of a page the scroll padding cannot scroll a
 * control clear of them, so they step aside instead of hiding it. It looks when focus moves,
 * and when a toast appears or ends its slide-in over the focused control (a toast that comes
 * after the focus, as "Welcome back!" does after signing in). It steps aside once per focused
 * control, so a control both edges would cover cannot make it swing back and forth, and not
 * for a panel taller than the screen (a toast hides a corner of it on either edge).
 */
function useToastDodge(viewport: React.RefObject<HTMLOListElement | null>) {
  const [flipped, setFlipped] = React.useState(false);
  React.useEffect(() => {
    const ol = viewport.current;
    if (!ol) return;
    let dodged: Element | null = null;
    const check = (target: EventTarget | null) => {
      if (!(target instanceof Element) || target === document.body || ol.contains(target) || target === dodged) return;
      const r = target.getBoundingClientRect();
      // a panel taller than the screen is under a toast wherever it goes: it only hides a corner
      if (r.height > window.innerHeight) return;
      const covered = [...ol.querySelectorAll("li")].some((li) => {
        const t = li.getBoundingClientRect();
        return t.left < r.right && t.right > r.left && t.top < r.bottom && t.bottom > r.top;
      });
      if (!covered) return;
      dodged = target;
      setFlipped((f) => !f);
    };
    const onFocus = (e: FocusEvent) => {
      dodged = null;
      check(e.target);
    };
    const onToast = () => check(document.activeElement);
    const added = new MutationObserver(onToast);
    added.observe(ol, { childList: true });
    document.addEventListener("focusin", onFocus);
    ol.addEventListener("animationend", onToast);
    return () => {
      added.disconnect();
      document.removeEventListener("focusin", onFocus);
      ol.removeEventListener("animationend", onToast);
    };
  }, [viewport]);
  return flipped;
}

/** Toaster renders the toast store's toasts; mount it once (the app provider does). */
export function Toaster() {
  const { toasts } = useToast();
  const viewport = React.useRef<HTMLOListElement>(null);
  useToastClearance(viewport);
  const flipped = useToastDodge(viewport);
  return (
    <ToastProvider duration={TOAST_DURATION}>
      {toasts.map(({ id, title, description, action, ...props }) => (
        <Toast key={id} {...props}>
          <div className="grid gap-1">
            {title && <ToastTitle>{title}</ToastTitle>}
            {description && <ToastDescription>{description}</ToastDescription>}
          </div>
          {action}
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport ref={viewport} className={flipped ? "top-auto bottom-0 sm:top-0 sm:bottom-auto" : undefined} />
    </ToastProvider>
  );
}
