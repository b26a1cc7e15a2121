import { zodResolver } from "@hookform/resolvers/zod";
import * as React from "react";
import { useForm } from "react-hook-form";
import { FormBody, SubmitRow } from "@/components/form-body";
import { InputFormField } from "@/components/form-fields";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { WIPE_PHRASE, type WipeValues, useHistoryCount, useWipeHistory, wipeSchema } from "@/features/system/api/system";
import { toast } from "@/hooks/use-toast";
import { newIdempotencyKey } from "@/lib/idempotency";
import { toastError } from "@/lib/toast-error";

/**
 * HistoryWipeCard is block 2 of /admin-system, the History Management danger zone: Delete
 * History Before Date, the count of movements that will go, and the typed DELETE HISTORY
 * confirmation (master admins; the balances stay, folded into one checkpoint).
 */
export function HistoryWipeCard() {
  const wipe = useWipeHistory();
  const ids = React.useId();
  const form = useForm<WipeValues>({ resolver: zodResolver(wipeSchema), defaultValues: { targetDate: "", confirmPhrase: "" } });
  const date = form.watch("targetDate");
  const count = useHistoryCount(date);
  const onSubmit = form.handleSubmit((values) =>
    wipe.mutate(
      { values, idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: (res) => {
          toast({ title: res?.message || "History wiped successfully!" });
          form.reset();
        },
        onError: (e) => toastError(e, "Failed to wipe history"),
      },
    ),
  );
  return (
    <Card role="region" aria-labelledby={`${ids}-title`} className="border-destructive/50">
      <CardHeader>
        <CardTitle id={`${ids}-title`} className="text-destructive">
          History Management
        </CardTitle>
        <CardDescription>
          Deletes every movement before the date. The counts stay as they are: the removed history is folded into one opening
          balance. This cannot be undone.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <FormBody form={form} onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" footer={<SubmitRow variant="destructive" pending={wipe.isPending} pendingLabel="Deleting...">Delete History</SubmitRow>}>
          <InputFormField control={form.control} name="targetDate" label="Delete History Before Date" type="date" />
          <InputFormField control={form.control} name="confirmPhrase" label={`Type ${WIPE_PHRASE} to confirm`} autoComplete="off" />
          <p className="text-sm sm:col-span-2" aria-live="polite">
            {count.data ? `${count.data.count} movement(s) will be removed.` : date ? "Counting..." : "Choose a date to see how many movements will go."}
          </p>
        </FormBody>
      </CardContent>
    </Card>
  );
}
