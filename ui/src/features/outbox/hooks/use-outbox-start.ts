import { useQueryClient } from "@tanstack/react-query";
import * as React from "react";
import { actionOf } from "@/features/outbox/api/actions";
import { start } from "@/features/outbox/api/outbox";
import { afterWrite, invalidate } from "@/lib/invalidation";

/**
 * useOutboxStart runs the outbox (DESIGN.md §12) for the signed-in user from the moment the
 * shell shows, not once the queue's sheet has loaded: the sheet comes after the first screen
 * (lib/first-screen-shown.ts), and a tap on the first screen before it (a quick log) must find
 * the outbox running, or it would be refused "Not signed in". A sent action refreshes what it
 * changed; a pause refreshes the session, which says what to fix (the shell starts the outbox
 * again once it is fixed, with the same keys: userId goes null → id).
 */
export function useOutboxStart(userId: string | null) {
  const qc = useQueryClient();
  React.useEffect(() => {
    if (!userId) return;
    start(userId, {
      hooks: {
        onSent: (item, answer) => {
          void afterWrite(qc, actionOf(item.kind)?.refreshes ?? [], answer);
        },
        onPause: () => void invalidate(qc, "session"),
      },
    });
  }, [qc, userId]);
}
