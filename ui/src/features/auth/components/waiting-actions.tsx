import { InboxIcon } from "lucide-react";
import * as React from "react";
import { afterFirstScreen } from "@/lib/first-screen-shown";

/**
 * WaitingActions tells a signed-out driver (a revoked or expired session) how many actions
 * wait in this phone's outbox: signing in here sends them, once, with their keys (DESIGN.md
 * §12). The outbox's store is read in a chunk of its own, after the sign-in screen is shown
 * (lib/first-screen-shown.ts).
 */
export function WaitingActions() {
  const [waiting, setWaiting] = React.useState(0);
  React.useEffect(() => {
    let live = true;
    const cancel = afterFirstScreen(() => {
      import("@/features/outbox/api/db")
        .then((db) => db.allItems())
        .then((items) => live && setWaiting(items.filter((x) => x.status !== "refused").length))
        .catch(() => undefined); // no IndexedDB: nothing can be waiting
    });
    return () => {
      live = false;
      cancel();
    };
  }, []);
  if (waiting === 0) return null;
  return (
    <p role="status" className="mb-4 flex items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
      <InboxIcon aria-hidden className="size-4 shrink-0" />
      <span>
        {waiting} {waiting === 1 ? "action" : "actions"} waiting on this phone. Sign in with the account that recorded {waiting === 1 ? "it" : "them"} to send {waiting === 1 ? "it" : "them"}.
      </span>
    </p>
  );
}
