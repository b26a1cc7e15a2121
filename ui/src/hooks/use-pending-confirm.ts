import * as React from "react";

/**
 * usePendingConfirm holds what a form waits to have confirmed (null: nothing) and the
 * ConfirmActionDialog's open state bound to it: the dialog is open while something waits, and
 * closing it drops what waited.
 *
 *   const [pending, setPending, confirmDialog] = usePendingConfirm<Values>();
 *   <ConfirmActionDialog {...confirmDialog} type="edit" … />
 */
export function usePendingConfirm<T>() {
  const [pending, setPending] = React.useState<T | null>(null);
  const dialog = { open: pending !== null, onOpenChange: (open: boolean) => !open && setPending(null) };
  return [pending, setPending, dialog] as const;
}
