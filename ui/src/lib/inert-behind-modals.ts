// While a Radix modal layer is open (a dialog, a dropdown menu, a select's list), Radix hides
// everything else from assistive tech with aria-hidden="true" and traps focus in the layer by
// script. aria-hidden alone leaves the content behind focusable (WCAG 4.1.2, axe's
// aria-hidden-focus): a menu or list has no aria-modal to say the rest is out of reach.
// inertBehindModals mirrors that aria-hidden as `inert`, so what is hidden is also out of the tab
// order and unclickable, and lifts it as soon as Radix does (before Radix returns focus to the
// trigger, which it does a task later).
//
// Radix usually hides the app's root. When the page holds a live region ([aria-live], such as a
// pack list's "2 of 3 scanned"), it keeps that region readable: the root stays shown and Radix
// hides the region's siblings at each level below it instead, marking each with
// data-aria-hidden. Those are mirrored too; an element's own `inert` (set by anything else) is
// never lifted here.

/** inertBehindModals keeps `inert` in step with the aria-hidden Radix sets on root or, around a live region, below it; returns a stop function. */
export function inertBehindModals(root: HTMLElement): () => void {
  const ours = new WeakSet<Element>();
  const sync = (el: Element) => {
    const hidden = el.getAttribute("aria-hidden") === "true" && (el === root || el.hasAttribute("data-aria-hidden"));
    if (hidden && !el.hasAttribute("inert")) {
      el.setAttribute("inert", "");
      ours.add(el);
    } else if (!hidden && ours.has(el)) {
      el.removeAttribute("inert");
      ours.delete(el);
    }
  };
  const observer = new MutationObserver((records) => {
    for (const r of records) if (r.target instanceof Element) sync(r.target);
  });
  observer.observe(root, { attributes: true, attributeFilter: ["aria-hidden", "data-aria-hidden"], subtree: true });
  sync(root);
  return () => observer.disconnect();
}
