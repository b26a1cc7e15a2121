// While a Radix modal layer is open (a dialog, a dropdown menu, a select's list), Radix hides
// everything else from assistive tech with aria-hidden="true" on the app's root and traps focus
// in the layer by script. aria-hidden alone leaves the content behind focusable (WCAG 4.1.2,
// axe's aria-hidden-focus): a menu or list has no aria-modal to say the rest is out of reach.
// inertBehindModals mirrors Radix's aria-hidden on the root as `inert`, so what is hidden is
// also out of the tab order and unclickable, and lifts it as soon as Radix does (before Radix
// returns focus to the trigger, which it does a task later).

/** inertBehindModals keeps root's `inert` in step with the aria-hidden Radix sets on it; returns a stop function. */
export function inertBehindModals(root: HTMLElement): () => void {
  const sync = () => {
    const hidden = root.getAttribute("aria-hidden") === "true";
    if (hidden !== root.hasAttribute("inert")) root.toggleAttribute("inert", hidden);
  };
  const observer = new MutationObserver(sync);
  observer.observe(root, { attributes: true, attributeFilter: ["aria-hidden"] });
  sync();
  return () => observer.disconnect();
}
