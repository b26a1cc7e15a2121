import type { ConfirmActionDialogProps } from "@/components/confirm-action-dialog";
import { Lazy, loadable } from "@/lib/loadable";

// The confirm dialog carries react-hook-form, zod and the Radix dialog: on the dashboards it is
// fetched when first opened, not with the page (issue 14: fewer requests before first paint).
const confirmActionDialog = loadable(() => import("@/components/confirm-action-dialog").then((m) => m.ConfirmActionDialog));

/** LazyConfirmActionDialog is ConfirmActionDialog, its code fetched the first time it opens. */
export function LazyConfirmActionDialog(props: ConfirmActionDialogProps) {
  if (!props.open) return null;
  return <Lazy of={confirmActionDialog} {...props} />;
}
