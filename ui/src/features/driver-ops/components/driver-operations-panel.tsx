import { zodResolver } from "@hookform/resolvers/zod";
import { ArrowDownToLineIcon, ArrowUpFromLineIcon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import { ConfirmActionDialog, type ConfirmValues } from "@/components/confirm-action-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { type DropoffInput, dropoffSchema, toCount, useRecordDropoff } from "@/features/driver-ops/api/record-dropoff";
import { type PickupInput, pickupSchema, useRecordPickup } from "@/features/driver-ops/api/record-pickup";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";

/** DEFAULT_DROPOFF_PROMPT is the notes placeholder when no dropoff prompt is set. */
export const DEFAULT_DROPOFF_PROMPT = "How was it in the field today? Any issues or observations?";
/** DEFAULT_PICKUP_LABEL is the pickup question when no pickup prompt is set. */
export const DEFAULT_PICKUP_LABEL = "Did you plug in dead batteries? (Required)";

/** Prompts are the operator's prompt settings from /api/state (blank means default). */
export type Prompts = { dropoff_prompt?: string; pickup_prompt?: string };

/**
 * DriverOperationsPanel holds the Battery Dropoff and Battery Pickup forms side by side
 * (stacked on phones). Each submit opens the Confirm Action dialog (with Edit); the
 * confirmed values are recorded under the dialog's idempotency key.
 */
export function DriverOperationsPanel({ prompts }: { prompts?: Prompts }) {
  return (
    <section aria-labelledby="driver-ops-title" className="space-y-3">
      <h2 id="driver-ops-title" className="text-lg font-semibold">
        Driver Operations
      </h2>
      <div className="grid gap-4 md:grid-cols-2">
        <DropoffForm prompt={prompts?.dropoff_prompt} />
        <PickupForm prompt={prompts?.pickup_prompt} />
      </div>
    </section>
  );
}

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-destructive">
      {message}
    </p>
  );
}

function DropoffForm({ prompt }: { prompt?: string }) {
  const dropoff = useRecordDropoff();
  const form = useForm<DropoffInput>({
    resolver: zodResolver(dropoffSchema),
    defaultValues: { goodBatteries: "", deadBatteries: "", notes: "" },
  });
  const [confirming, setConfirming] = React.useState<{ values: ConfirmValues; notes: string } | null>(null);
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((v) => {
    dropoff.reset();
    setConfirming({
      values: { goodBatteries: toCount(v.goodBatteries), deadBatteries: toCount(v.deadBatteries) },
      notes: v.notes.trim(),
    });
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ArrowDownToLineIcon aria-hidden className="size-5 text-emerald-700" />
          Battery Dropoff
        </CardTitle>
        <CardDescription>Good batteries go to the Ready count; dead batteries go to the Waiting count.</CardDescription>
      </CardHeader>
      <CardContent>
        <form aria-label="Battery Dropoff" onSubmit={onSubmit} noValidate className="grid gap-4">
          <div className="grid grid-cols-2 gap-3">
            <div className="grid gap-2">
              <Label htmlFor="dropoff-good">Good Batteries</Label>
              <Input
                id="dropoff-good"
                type="number"
                inputMode="numeric"
                min={0}
                placeholder="0"
                aria-invalid={!!errors.goodBatteries}
                aria-describedby={errors.goodBatteries ? "dropoff-good-error" : undefined}
                {...form.register("goodBatteries")}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="dropoff-dead">Dead Batteries</Label>
              <Input
                id="dropoff-dead"
                type="number"
                inputMode="numeric"
                min={0}
                placeholder="0"
                aria-invalid={!!errors.deadBatteries}
                aria-describedby={errors.deadBatteries ? "dropoff-dead-error" : undefined}
                {...form.register("deadBatteries")}
              />
            </div>
          </div>
          <FieldError id="dropoff-good-error" message={errors.goodBatteries?.message} />
          <FieldError id="dropoff-dead-error" message={errors.deadBatteries?.message} />
          <div className="grid gap-2">
            <Label htmlFor="dropoff-notes">Notes (Required)</Label>
            <Textarea
              id="dropoff-notes"
              rows={3}
              maxLength={2000}
              placeholder={prompt?.trim() || DEFAULT_DROPOFF_PROMPT}
              aria-invalid={!!errors.notes}
              aria-describedby={errors.notes ? "dropoff-notes-error" : undefined}
              {...form.register("notes")}
            />
            <FieldError id="dropoff-notes-error" message={errors.notes?.message} />
          </div>
          <Button type="submit" disabled={dropoff.isPending}>
            {dropoff.isPending ? "Recording..." : "Record Dropoff"}
          </Button>
        </form>
      </CardContent>
      <ConfirmActionDialog
        open={confirming !== null}
        onOpenChange={(o) => !o && setConfirming(null)}
        type="dropoff"
        values={confirming?.values ?? {}}
        details={{ notes: confirming?.notes }}
        pending={dropoff.isPending}
        error={dropoff.isError ? "Failed to record dropoff" : null}
        onConfirm={(values, idempotencyKey) =>
          confirming &&
          dropoff.mutate(
            {
              goodBatteries: values.goodBatteries ?? 0,
              deadBatteries: values.deadBatteries ?? 0,
              notes: confirming.notes,
              idempotencyKey,
            },
            {
              onSuccess: () => {
                toast({ title: "Battery dropoff recorded successfully" });
                setConfirming(null);
                form.reset();
              },
              onError: () => toast({ title: "Error", description: "Failed to record dropoff", variant: "destructive" }),
            },
          )
        }
      />
    </Card>
  );
}

function PickupForm({ prompt }: { prompt?: string }) {
  const pickup = useRecordPickup();
  const form = useForm<PickupInput>({ resolver: zodResolver(pickupSchema), defaultValues: { quantity: "", notes: "" } });
  const [confirming, setConfirming] = React.useState<{ values: ConfirmValues; notes: string } | null>(null);
  const { errors } = form.formState;
  const custom = prompt?.trim();

  const onSubmit = form.handleSubmit((v) => {
    pickup.reset();
    setConfirming({ values: { quantity: Number.parseInt(v.quantity, 10) }, notes: v.notes.trim() });
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ArrowUpFromLineIcon aria-hidden className="size-5 text-sky-700" />
          Battery Pickup
        </CardTitle>
        <CardDescription>Take charged batteries from the Ready count into the field.</CardDescription>
      </CardHeader>
      <CardContent>
        <form aria-label="Battery Pickup" onSubmit={onSubmit} noValidate className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="pickup-quantity">Quantity</Label>
            <Input
              id="pickup-quantity"
              type="number"
              inputMode="numeric"
              min={1}
              aria-invalid={!!errors.quantity}
              aria-describedby={errors.quantity ? "pickup-quantity-error" : undefined}
              {...form.register("quantity")}
            />
            <FieldError id="pickup-quantity-error" message={errors.quantity?.message} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="pickup-notes">{custom || DEFAULT_PICKUP_LABEL}</Label>
            <Input
              id="pickup-notes"
              maxLength={2000}
              placeholder={custom ? "Enter response" : "Y or N"}
              aria-invalid={!!errors.notes}
              aria-describedby={errors.notes ? "pickup-notes-error" : undefined}
              {...form.register("notes")}
            />
            <FieldError id="pickup-notes-error" message={errors.notes?.message} />
          </div>
          <Button type="submit" disabled={pickup.isPending}>
            {pickup.isPending ? "Recording..." : "Record Pickup"}
          </Button>
        </form>
      </CardContent>
      <ConfirmActionDialog
        open={confirming !== null}
        onOpenChange={(o) => !o && setConfirming(null)}
        type="pickup"
        values={confirming?.values ?? {}}
        details={{ notes: confirming?.notes }}
        pending={pickup.isPending}
        error={pickup.error ? errorMessage(pickup.error, "Failed to record pickup") : null}
        onConfirm={(values, idempotencyKey) =>
          confirming &&
          pickup.mutate(
            { quantity: values.quantity ?? 0, notes: confirming.notes, idempotencyKey },
            {
              onSuccess: () => {
                toast({ title: "Battery pickup recorded successfully" });
                setConfirming(null);
                form.reset();
              },
              onError: (err) => toast({ title: "Error", description: errorMessage(err, "Failed to record pickup"), variant: "destructive" }),
            },
          )
        }
      />
    </Card>
  );
}
