import { zodResolver } from "@hookform/resolvers/zod";
import { ArrowDownToLineIcon, ArrowUpFromLineIcon } from "lucide-react";
import * as React from "react";
import { type FieldValues, useForm } from "react-hook-form";
import { LazyConfirmActionDialog } from "@/components/lazy-confirm-action-dialog";
import { CountFormField } from "@/components/count-form-field";
import { FormBody } from "@/components/form-body";
import { FormCard, type FormCardProps } from "@/components/form-card";
import { InputFormField } from "@/components/form-fields";
import { TextareaFormField } from "@/components/textarea-form-field";
import { Button } from "@/components/ui/button";
import { type DropoffBody, type DropoffInput, type DropoffSend, dropoffAction, dropoffSchema } from "@/features/driver-ops/api/record-dropoff";
import { type PickupBody, type PickupInput, type PickupSend, pickupAction, pickupSchema } from "@/features/driver-ops/api/record-pickup";
import { PackListField } from "@/features/scan/index";
import { type RecordForm, useRecordForm } from "@/features/driver-ops/hooks/use-record-form";
import { errorMessage } from "@/lib/api-client";
import { batteryCount } from "@/lib/format";
import { packsBody, useScannedCount } from "@/lib/packs";

/** DEFAULT_DROPOFF_PROMPT is the notes placeholder when no dropoff prompt is set. */
export const DEFAULT_DROPOFF_PROMPT = "How was it in the field today? Any issues or observations?";
/** DEFAULT_PICKUP_LABEL is the pickup question when no pickup prompt is set. */
export const DEFAULT_PICKUP_LABEL = "Did you plug in dead batteries? (Required)";

/** Prompts are the operator's prompt settings from /api/state (blank means default). */
export type Prompts = { dropoff_prompt?: string; pickup_prompt?: string };

/**
 * DriverOperationsPanel holds the Battery Pickup and Battery Dropoff forms side by side
 * (stacked on phones, the pickup first: a shift starts with one, and its Scan button is then
 * reached without scrolling past the dropoff form, issue 42 item 6). Each submit opens the Confirm Action dialog (with Edit); the
 * confirmed values go through the outbox under the dialog's idempotency key (DESIGN.md §12):
 * stored on the phone first, then sent; without a network they wait in the queue.
 *
 * Under pack tracking (DESIGN.md §14) each form scans its packs (dropoff: good and dead
 * apart): optional, the scans set the count and the driver may type it higher; required, the
 * count is the number scanned. A pack the rules refuse (an out-of-use pack picked up) is red in
 * the scanner and on its row, named in the Confirm dialog, and not sent. The packs travel in the outbox item; a refusal that names a pack
 * shows on its row, the list kept, until the driver removes it and sends again.
 * dropoffExtra is shown under the dropoff form (the app puts the damage report's entry there).
 */
export function DriverOperationsPanel({ prompts, dropoffExtra }: { prompts?: Prompts; dropoffExtra?: React.ReactNode }) {
  return (
    <section aria-labelledby="driver-ops-title" className="space-y-3">
      <h2 id="driver-ops-title" className="text-lg font-semibold">
        Driver Operations
      </h2>
      <div className="grid gap-4 md:grid-cols-2">
        {/* pickup first: on a phone its Scan button is reached without scrolling past the dropoff form */}
        <PickupForm prompt={prompts?.pickup_prompt} />
        <DropoffForm prompt={prompts?.dropoff_prompt} extra={dropoffExtra} />
      </div>
    </section>
  );
}

const DROPOFF_LISTS = ["goodPacks", "deadPacks"] as const;

function DropoffForm({ prompt, extra }: { prompt?: string; extra?: React.ReactNode }) {
  const form = useForm<DropoffInput, unknown, DropoffBody>({
    resolver: zodResolver(dropoffSchema),
    defaultValues: { goodBatteries: "", deadBatteries: "", notes: "" },
  });
  const record = useRecordForm(form, DROPOFF_LISTS, (v) => ({ goodPacks: v.goodBatteries, deadPacks: v.deadBatteries }));
  const { submit, confirming, mode, packs, confirm, dialog } = record;
  const { goodPacks, deadPacks } = packs.lists;
  useScannedCount(form, mode, "goodBatteries", goodPacks);
  useScannedCount(form, mode, "deadBatteries", deadPacks);

  return (
    <RecordFormCard
      icon={ArrowDownToLineIcon}
      iconClassName="text-emerald-700"
      title="Battery Dropoff"
      description="Good batteries go to the Ready count; dead batteries go to the Waiting count."
      record={record}
      submitText="Record Dropoff"
      extra={extra}
      dialog={
        <LazyConfirmActionDialog
          {...dialog}
          type="dropoff"
          summary={`You are dropping off ${batteryCount((confirming?.goodBatteries ?? 0) + (confirming?.deadBatteries ?? 0))}: good batteries go to Ready, dead batteries go to Waiting.`}
          values={{ goodBatteries: confirming?.goodBatteries ?? 0, deadBatteries: confirming?.deadBatteries ?? 0 }}
          packs={[...goodPacks, ...deadPacks]}
          notes={confirming?.notes}
          error={submit.isError ? "Failed to record dropoff" : null}
          onConfirm={confirm(
            dropoffAction.kind,
            (c, values): DropoffSend => ({
              goodBatteries: values.goodBatteries ?? 0,
              deadBatteries: values.deadBatteries ?? 0,
              notes: c.notes,
              ...packsBody(mode, { goodPacks, deadPacks }),
            }),
            {
              sent: "Battery dropoff recorded successfully",
              refusal: (err, packRefused) => (packRefused ? errorMessage(err, "Failed to record dropoff") : "Failed to record dropoff"),
            },
          )}
        />
      }
    >
      <div className="grid grid-cols-2 gap-3">
        {(
          [
            ["goodBatteries", "Good Batteries"],
            ["deadBatteries", "Dead Batteries"],
          ] as const
        ).map(([name, label]) => (
          <CountFormField key={name} control={form.control} name={name} label={label} min={0} placeholder="0" tracking={mode} />
        ))}
      </div>
      <PackListField id="dropoff.goodPacks" label="Good packs" purpose="return" lists={packs} list="goodPacks" tracking={mode} count={form.watch("goodBatteries")} />
      <PackListField id="dropoff.deadPacks" label="Dead packs" purpose="return" lists={packs} list="deadPacks" tracking={mode} count={form.watch("deadBatteries")} />
      <TextareaFormField
        control={form.control}
        name="notes"
        label="Notes (Required)"
        rows={3}
        maxLength={2000}
        placeholder={prompt?.trim() || DEFAULT_DROPOFF_PROMPT}
      />
    </RecordFormCard>
  );
}

const PICKUP_LISTS = ["packs"] as const;

function PickupForm({ prompt }: { prompt?: string }) {
  const form = useForm<PickupInput, unknown, PickupBody>({ resolver: zodResolver(pickupSchema), defaultValues: { quantity: "", notes: "" } });
  const record = useRecordForm(form, PICKUP_LISTS, (v) => ({ packs: v.quantity }));
  const { submit, confirming, mode, packs, confirm, dialog } = record;
  const custom = prompt?.trim();
  const scanned = packs.lists.packs;
  useScannedCount(form, mode, "quantity", scanned);

  return (
    <RecordFormCard
      icon={ArrowUpFromLineIcon}
      iconClassName="text-sky-700"
      title="Battery Pickup"
      description="Take charged batteries from the Ready count into the field."
      record={record}
      submitText="Record Pickup"
      dialog={
        <LazyConfirmActionDialog
          {...dialog}
          type="pickup"
          summary={`You are picking up ${batteryCount(confirming?.quantity ?? 0)} from the Ready pool.`}
          values={{ quantity: confirming?.quantity ?? 0 }}
          packs={scanned}
          refused={packs.refused}
          notes={confirming?.notes}
          error={submit.error ? errorMessage(submit.error, "Failed to record pickup") : null}
          onConfirm={confirm(
            pickupAction.kind,
            (c, values): PickupSend => ({ quantity: values.quantity ?? 0, notes: c.notes, ...packsBody(mode, { packs: scanned }) }),
            { sent: "Battery pickup recorded successfully", refusal: (err) => errorMessage(err, "Failed to record pickup") },
          )}
        />
      }
    >
      <CountFormField control={form.control} name="quantity" label="Quantity" min={1} tracking={mode} />
      <PackListField id="pickup.packs" label="Packs" purpose="handout" lists={packs} list="packs" tracking={mode} count={form.watch("quantity")} />
      <InputFormField
        control={form.control}
        name="notes"
        label={custom || DEFAULT_PICKUP_LABEL}
        maxLength={2000}
        placeholder={custom ? "Enter response" : "Y or N"}
      />
    </RecordFormCard>
  );
}

/**
 * RecordFormCard is a driver's battery form in its card: the fields, then the submit button
 * (not disabled while pending: the confirm dialog returns focus here when it closes), what the
 * app shows under the form, and the form's Confirm Action dialog.
 */
function RecordFormCard<TInput extends FieldValues, TBody>({
  record: { form, onSubmit, submit },
  submitText,
  extra,
  dialog,
  children,
  ...card
}: Omit<FormCardProps, "title"> & {
  title: string;
  record: Pick<RecordForm<TInput, TBody>, "form" | "onSubmit" | "submit">;
  submitText: string;
  extra?: React.ReactNode;
  dialog: React.ReactNode;
}) {
  return (
    <FormCard {...card}>
      <FormBody
        form={form}
        onSubmit={onSubmit}
        aria-label={card.title}
        className="grid gap-4"
        footer={
          <Button type="submit" aria-disabled={submit.isPending || undefined}>
            {submit.isPending ? "Recording..." : submitText}
          </Button>
        }
      >
        {children}
      </FormBody>
      {extra && <div className="mt-4 border-t pt-4">{extra}</div>}
      {dialog}
    </FormCard>
  );
}
