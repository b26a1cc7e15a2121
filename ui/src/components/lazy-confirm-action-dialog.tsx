import * as React from "react";
import type { ConfirmActionDialogProps } from "@/components/confirm-action-dialog";

// The confirm dialog carries react-hook-form, zod and the Radix dialog: on the dashboards it is
// fetched when first opened, not with the page (issue 14: fewer requests before first paint).
const Impl = React.lazy(() => import("@/components/confirm-action-dialog").then((m) => ({ default: m.ConfirmActionDialog })));

/** LazyConfirmActionDialog is ConfirmActionDialog, its code fetched the first time it opens. */
export function LazyConfirmActionDialog(props: ConfirmActionDialogProps) {
  if (!props.open) return null;
  return (
    <React.Suspense fallback={null}>
      <Impl {...props} />
    </React.Suspense>
  );
}
