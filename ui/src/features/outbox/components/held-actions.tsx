import { InboxIcon } from "lucide-react";
import * as React from "react";
import { allItems } from "@/features/outbox/api/db";

/** heldText tells a driver whose account is on hold how many of their actions wait on this phone. */
export function heldText(n: number): string {
  const it = n === 1 ? "it is" : "they are";
  return `${n} ${n === 1 ? "action" : "actions"} of yours ${n === 1 ? "waits" : "wait"} on this phone: ${it} sent once your account is approved again. Signing out keeps ${n === 1 ? "it" : "them"} here.`;
}

/**
 * HeldActions tells a signed-in driver whose account is not approved (suspended, rejected,
 * pending) how many of their actions wait in this phone's outbox (DESIGN.md §12): the queue's
 * sheet is not shown on the blocking panel, and the actions are neither sent nor dropped.
 */
export function HeldActions({ userId }: { userId: string }) {
  const [waiting, setWaiting] = React.useState(0);
  React.useEffect(() => {
    let live = true;
    allItems()
      .then((items) => live && setWaiting(items.filter((x) => x.userId === userId && x.status !== "refused").length))
      .catch(() => undefined); // no IndexedDB: nothing can be waiting
    return () => {
      live = false;
    };
  }, [userId]);
  if (waiting === 0) return null;
  return (
    <p role="status" className="flex items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-left text-sm text-amber-900">
      <InboxIcon aria-hidden className="size-4 shrink-0" />
      <span>{heldText(waiting)}</span>
    </p>
  );
}
