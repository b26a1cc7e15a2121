import type * as React from "react";

/**
 * Hint is what a control tells beyond its visible text. The control is named by what it shows
 * (SC 2.5.3 Label in Name: a voice-control user says what they see), and points at its Hint
 * with aria-describedby: a screen reader reads the hint after the name. Hidden, so it is read
 * only as that description, never on its own; rendered outside the control, so it never
 * becomes part of the name.
 */
export function Hint({ id, children }: { id: string; children: React.ReactNode }) {
  return (
    <span id={id} hidden>
      {children}
    </span>
  );
}
