import * as React from "react";
import { type OutboxKind, type Outcome, type Part, submit } from "@/features/outbox/api/outbox";
import { toast } from "@/hooks/use-toast";

/** QUEUED_TOAST is what a driver sees when an action could not be sent at once. */
export const QUEUED_TOAST = {
  title: "Saved on this phone",
  description: "It will be sent when the connection returns. The queue at the top shows it.",
} as const;

/**
 * useOutboxSubmit records a driver action through the outbox (features/outbox/api/outbox.ts):
 * stored before the first send, with the key minted at the tap (after its parts, a report's
 * photos, in the same transaction). isPending while the first send runs; error is the
 * server's refusal of it (the form keeps its values and shows it).
 * A queued action (offline, server away) counts as done for the form: onDone runs after the
 * QUEUED_TOAST.
 */
export function useOutboxSubmit() {
  const [isPending, setPending] = React.useState(false);
  const [error, setError] = React.useState<unknown>(null);
  const run = React.useCallback(
    async (
      kind: OutboxKind,
      body: Record<string, unknown>,
      opts: { key?: string; blob?: Blob; parts?: readonly Part[]; onSent?: (answer: unknown) => void; onQueued?: () => void; onRefused?: (error: unknown) => void },
    ): Promise<Outcome> => {
      setPending(true);
      setError(null);
      let outcome: Outcome;
      try {
        outcome = await submit(kind, body, { key: opts.key, blob: opts.blob, parts: opts.parts });
      } catch (e) {
        // the store refused it (full, or IndexedDB unavailable): nothing was queued
        outcome = { status: "refused", error: e };
      } finally {
        setPending(false);
      }
      if (outcome.status === "sent") opts.onSent?.(outcome.answer);
      else if (outcome.status === "queued") {
        toast(QUEUED_TOAST);
        opts.onQueued?.();
      } else {
        setError(outcome.error);
        opts.onRefused?.(outcome.error);
      }
      return outcome;
    },
    [],
  );
  const reset = React.useCallback(() => setError(null), []);
  return { run, isPending, isError: error !== null, error, reset };
}
