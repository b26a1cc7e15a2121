import { zodResolver } from "@hookform/resolvers/zod";
import { ArrowDownToLineIcon, ArrowUpFromLineIcon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import { LazyConfirmActionDialog } from "@/components/lazy-confirm-action-dialog";
import { FormCard } from "@/components/form-card";
import { InputFormField } from "@/components/form-fields";
import { TextareaFormField } from "@/components/textarea-form-field";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { type DropoffBody, type DropoffInput, type DropoffSend, dropoffAction, dropoffSchema } from "@/features/driver-ops/api/record-dropoff";
import { type PickupBody, type PickupInput, type PickupSend, pickupAction, pickupSchema } from "@/features/driver-ops/api/record-pickup";
import { PackListField } from "@/features/scan/index";
import { useOutboxSubmit } from "@/features/outbox/hooks/use-submit";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { batteryCount } from "@/lib/format";
import { countFieldProps, packsBody, usePackLists, usePackTracking, useScannedCount } from "@/lib/packs";

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
  const dropoff = useOutboxSubmit();
  const form = useForm<DropoffInput, unknown, DropoffBody>({
    resolver: zodResolver(dropoffSchema),
    defaultValues: { goodBatteries: "", deadBatteries: "", notes: "" },
  });
  const [confirming, setConfirming] = React.useState<DropoffBody | null>(null);
  const mode = usePackTracking();
  const packs = usePackLists(DROPOFF_LISTS);
  const { goodPacks, deadPacks } = packs.lists;
  useScannedCount(form, mode, "goodBatteries", goodPacks);
  useScannedCount(form, mode, "deadBatteries", deadPacks);

  const onSubmit = form.handleSubmit((v) => {
    if (dropoff.isPending) return;
    if (!packs.check(mode, { goodPacks: v.goodBatteries, deadPacks: v.deadBatteries })) return;
    dropoff.reset();
    setConfirming(v);
  });
  const done = () => {
    setConfirming(null);
    form.reset();
    packs.clear();
  };

  return (
    <FormCard
      icon={ArrowDownToLineIcon}
      iconClassName="text-emerald-700"
      title="Battery Dropoff"
      description="Good batteries go to the Ready count; dead batteries go to the Waiting count."
    >
      <Form {...form}>
        <form aria-label="Battery Dropoff" onSubmit={onSubmit} noValidate className="grid gap-4">
          <div className="grid grid-cols-2 gap-3">
            {(
              [
                ["goodBatteries", "Good Batteries"],
                ["deadBatteries", "Dead Batteries"],
              ] as const
            ).map(([name, label]) => (
              <InputFormField
                key={name}
                control={form.control}
                name={name}
                label={label}
                type="number"
                inputMode="numeric"
                min={0}
                placeholder="0"
                {...countFieldProps(mode)}
              />
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
          {/* not disabled while pending: the confirm dialog returns focus here when it closes */}
          <Button type="submit" aria-disabled={dropoff.isPending || undefined}>
            {dropoff.isPending ? "Recording..." : "Record Dropoff"}
          </Button>
        </form>
      </Form>
      {extra && <div className="mt-4 border-t pt-4">{extra}</div>}
      <LazyConfirmActionDialog
        open={confirming !== null}
        onOpenChange={(o) => !o && setConfirming(null)}
        type="dropoff"
        summary={`You are dropping off ${batteryCount((confirming?.goodBatteries ?? 0) + (confirming?.deadBatteries ?? 0))}: good batteries go to Ready, dead batteries go to Waiting.`}
        values={{ goodBatteries: confirming?.goodBatteries ?? 0, deadBatteries: confirming?.deadBatteries ?? 0 }}
        packs={[...goodPacks, ...deadPacks]}
        notes={confirming?.notes}
        allowEdit={mode !== "required"}
        pending={dropoff.isPending}
        error={dropoff.isError ? "Failed to record dropoff" : null}
        onConfirm={(values, idempotencyKey) => {
          if (!confirming) return;
          const body: DropoffSend = {
            goodBatteries: values.goodBatteries ?? 0,
            deadBatteries: values.deadBatteries ?? 0,
            notes: confirming.notes,
            ...packsBody(mode, { goodPacks, deadPacks }),
          };
          void dropoff.run(dropoffAction.kind, body, {
            key: idempotencyKey,
            onSent: () => {
              toast({ title: "Battery dropoff recorded successfully" });
              done();
            },
            onQueued: done,
            onRefused: (err) => {
              // a refused pack: the dialog closes on the list, the pack's row says why
              const packRefused = packs.refuse(err);
              if (packRefused) setConfirming(null);
              toast({ title: "Error", description: packRefused ? errorMessage(err, "Failed to record dropoff") : "Failed to record dropoff", variant: "destructive" });
            },
          });
        }}
      />
    </FormCard>
  );
}

const PICKUP_LISTS = ["packs"] as const;

function PickupForm({ prompt }: { prompt?: string }) {
  const pickup = useOutboxSubmit();
  const form = useForm<PickupInput, unknown, PickupBody>({ resolver: zodResolver(pickupSchema), defaultValues: { quantity: "", notes: "" } });
  const [confirming, setConfirming] = React.useState<PickupBody | null>(null);
  const custom = prompt?.trim();
  const mode = usePackTracking();
  const packs = usePackLists(PICKUP_LISTS);
  const scanned = packs.lists.packs;
  useScannedCount(form, mode, "quantity", scanned);

  const onSubmit = form.handleSubmit((v) => {
    if (pickup.isPending) return;
    if (!packs.check(mode, { packs: v.quantity })) return;
    pickup.reset();
    setConfirming(v);
  });
  const done = () => {
    setConfirming(null);
    form.reset();
    packs.clear();
  };

  return (
    <FormCard
      icon={ArrowUpFromLineIcon}
      iconClassName="text-sky-700"
      title="Battery Pickup"
      description="Take charged batteries from the Ready count into the field."
    >
      <Form {...form}>
        <form aria-label="Battery Pickup" onSubmit={onSubmit} noValidate className="grid gap-4">
          <InputFormField
            control={form.control}
            name="quantity"
            label="Quantity"
            type="number"
            inputMode="numeric"
            min={1}
            {...countFieldProps(mode)}
          />
          <PackListField id="pickup.packs" label="Packs" purpose="handout" lists={packs} list="packs" tracking={mode} count={form.watch("quantity")} />
          <InputFormField
            control={form.control}
            name="notes"
            label={custom || DEFAULT_PICKUP_LABEL}
            maxLength={2000}
            placeholder={custom ? "Enter response" : "Y or N"}
          />
          {/* not disabled while pending: the confirm dialog returns focus here when it closes */}
          <Button type="submit" aria-disabled={pickup.isPending || undefined}>
            {pickup.isPending ? "Recording..." : "Record Pickup"}
          </Button>
        </form>
      </Form>
      <LazyConfirmActionDialog
        open={confirming !== null}
        onOpenChange={(o) => !o && setConfirming(null)}
        type="pickup"
        summary={`You are picking up ${batteryCount(confirming?.quantity ?? 0)} from the Ready pool.`}
        values={{ quantity: confirming?.quantity ?? 0 }}
        packs={scanned}
        refused={packs.refused}
        notes={confirming?.notes}
        allowEdit={mode !== "required"}
        pending={pickup.isPending}
        error={pickup.error ? errorMessage(pickup.error, "Failed to record pickup") : null}
        onConfirm={(values, idempotencyKey) => {
          if (!confirming) return;
          const body: PickupSend = { quantity: values.quantity ?? 0, notes: confirming.notes, ...packsBody(mode, { packs: scanned }) };
          void pickup.run(pickupAction.kind, body, {
            key: idempotencyKey,
            onSent: () => {
              toast({ title: "Battery pickup recorded successfully" });
              done();
            },
            onQueued: done,
            onRefused: (err) => {
              // a refused pack: the dialog closes on the list, the pack's row says why
              if (packs.refuse(err)) setConfirming(null);
              toast({ title: "Error", description: errorMessage(err, "Failed to record pickup"), variant: "destructive" });
            },
          });
        }}
      />
    </FormCard>
  );
}

