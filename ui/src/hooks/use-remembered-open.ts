import * as React from "react";

/** REMEMBERED_OPEN_PREFIX prefixes the localStorage key of each collapsible section's state. */
export const REMEMBERED_OPEN_PREFIX = "swapbay.section.";

function read(key: string): boolean {
  try {
    return window.localStorage.getItem(key) !== "closed";
  } catch {
    return true; // storage refused (private mode, a policy): every section starts open
  }
}

/**
 * useRememberedOpen is a section's open state, remembered on this device under id
 * (localStorage "swapbay.section.<id>" = "closed" or "open"); a section never toggled is open.
 */
export function useRememberedOpen(id: string): [boolean, (open: boolean) => void] {
  const key = REMEMBERED_OPEN_PREFIX + id;
  const [open, setOpenState] = React.useState(() => read(key));
  const setOpen = React.useCallback(
    (next: boolean) => {
      setOpenState(next);
      try {
        window.localStorage.setItem(key, next ? "open" : "closed");
      } catch {
        // not remembered; the section still toggles
      }
    },
    [key],
  );
  return [open, setOpen];
}
