import * as React from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import type { ConfirmValues } from "@/components/confirm-action-dialog";
import type { OutboxKind } from "@/features/outbox/api/db";
import { useOutboxSubmit } from "@/features/outbox/hooks/use-submit";
import { toast } from "@/hooks/use-toast";
import { usePackLists, usePackTracking } from "@/lib/packs";

/** RecordOutcome: the toast of a sent action, and the error toast's text for a refusal (packRefused: it named a pack). */
export type RecordOutcome = { sent: string; refusal: (error: unknown, packRefused: boolean) => string };

/**
 * useRecordForm is what a driver's battery form (pickup, dropoff) does around its fields: a
 * submit checks the scanned lists against the counts (counts(v) per list) and waits for the
 * Confirm Action dialog; confirmed, confirm(kind, body, outcome) records the body through the
 * outbox under the dialog's key. Sent or queued, the dialog closes and the form and its lists
 * empty; refused for a pack, the dialog closes on the list, the pack's row says why.
 */
export function useRecordForm<TInput extends FieldValues, TBody, F extends string>(
  form: UseFormReturn<TInput, unknown, TBody>,
  lists: readonly F[],
  counts: (v: TBody) => Partial<Record<F, number>>,
) {
  const submit = useOutboxSubmit();
  const [confirming, setConfirming] = React.useState<TBody | null>(null);
  const mode = usePackTracking();
  const packs = usePackLists(lists);

  const onSubmit = form.handleSubmit((v) => {
    if (submit.isPending) return;
    if (!packs.check(mode, counts(v))) return;
    submit.reset();
    setConfirming(v);
  });
  const done = () => {
    setConfirming(null);
    form.reset();
    packs.clear();
  };
  const confirm =
    (kind: OutboxKind, body: (confirmed: TBody, values: ConfirmValues) => Record<string, unknown>, { sent, refusal }: RecordOutcome) =>
    (values: ConfirmValues, idempotencyKey: string) => {
      if (!confirming) return;
      void submit.run(kind, body(confirming, values), {
        key: idempotencyKey,
        onSent: () => {
          toast({ title: sent });
          done();
        },
        onQueued: done,
        onRefused: (err) => {
          // a refused pack: the dialog closes on the list, the pack's row says why
          const packRefused = packs.refuse(err);
          if (packRefused) setConfirming(null);
          toast({ title: "Error", description: refusal(err, packRefused), variant: "destructive" });
        },
      });
    };
  // the Confirm Action dialog's part: open while a submit waits; its numbers editable unless they are the packs scanned
  const dialog = { open: confirming !== null, onOpenChange: (open: boolean) => !open && setConfirming(null), pending: submit.isPending, allowEdit: mode !== "required" };
  return { form, submit, confirming, mode, packs, onSubmit, confirm, dialog };
}

/** RecordForm is what useRecordForm gives its form. */
export type RecordForm<TInput extends FieldValues, TBody> = ReturnType<typeof useRecordForm<TInput, TBody, string>>;
