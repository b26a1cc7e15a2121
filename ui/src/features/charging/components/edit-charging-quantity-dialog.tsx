import { zodResolver } from "@hookform/resolvers/zod";
import * as React from "react";
import { useForm } from "react-hook-form";
import type * as z from "zod/mini";
import { ConfirmActionDialog, type ConfirmValues } from "@/components/confirm-action-dialog";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import type { ChargingSession } from "@/features/charging/api/get-charging-sessions";
import {
  type QuantityDestination,
  editQuantitySchema,
  useUpdateChargingSessionQuantity,
} from "@/features/charging/api/update-charging-session-quantity";
import { quantityChange, quantityChangeSummary } from "@/features/charging/utils/session-status";
import { usePendingConfirm } from "@/hooks/use-pending-confirm";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";

/** DESTINATIONS are the answers to 'Where are these batteries going?' (spec part 1 §2). */
const DESTINATIONS: { value: QuantityDestination; label: string; hint: string }[] = [
  { value: "ready", label: "Good - Fully Charged", hint: "They go to the Ready count." },
  { value: "waiting", label: "Dead - Needs More Charging", hint: "They go back to the Waiting count." },
];

type EditSchema = ReturnType<typeof editQuantitySchema>;

/**
 * EditChargingQuantityDialog is the Edit Charging Session Quantity dialog: it shows the
 * current quantity; Update does nothing when the quantity is unchanged, asks where removed
 * batteries go when it is reduced, and draws from waiting when it is increased; then the
 * Confirm Action dialog (type charging_edit) sends the change.
 */
export function EditChargingQuantityDialog({
  session,
  onOpenChange,
}: {
  session: ChargingSession | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={session !== null} onOpenChange={onOpenChange}>
      {session && <EditQuantityContent session={session} close={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function EditQuantityContent({ session, close }: { session: ChargingSession; close: () => void }) {
  const schema = React.useMemo(() => editQuantitySchema(session.quantity), [session.quantity]);
  const form = useForm<z.input<EditSchema>, unknown, z.output<EditSchema>>({
    resolver: zodResolver(schema),
    defaultValues: { quantity: String(session.quantity), destination: "" },
  });
  const [confirming, setConfirming, confirmDialog] = usePendingConfirm<z.output<EditSchema>>();
  const update = useUpdateChargingSessionQuantity();
  const change = quantityChange(session.quantity, form.watch("quantity"));
  const ids = React.useId();

  const onUpdate = form.handleSubmit((v) => {
    if (v.quantity === session.quantity) {
      close();
      return;
    }
    update.reset();
    setConfirming(v);
  });

  const onConfirm = (values: ConfirmValues, idempotencyKey: string) => {
    const quantity = values.quantity ?? 0;
    if (quantity === session.quantity) {
      setConfirming(null);
      close();
      return;
    }
    // an Edit in the confirm dialog may turn a reduction into an increase: increases draw from waiting
    const dest: QuantityDestination = quantity < session.quantity && confirming?.destination ? confirming.destination : "waiting";
    update.mutate(
      { id: session.id, quantity, destination: dest, idempotencyKey },
      {
        onSuccess: () => {
          toast({ title: "Charging session quantity updated successfully" });
          setConfirming(null);
          close();
        },
        onError: (err) =>
          toast({
            title: "Failed to update charging session quantity",
            description: errorMessage(err, ""),
            variant: "destructive",
          }),
      },
    );
  };

  return (
    <DialogContent>
      <DialogHeader>
        <DialogTitle>Edit Charging Session Quantity</DialogTitle>
        <DialogDescription>
          {session.chargerType} session. Current quantity: <strong>{session.quantity}</strong>
        </DialogDescription>
      </DialogHeader>
      <Form {...form}>
        <form id={`${ids}-form`} noValidate onSubmit={onUpdate} className="grid gap-4">
          <FormField
            control={form.control}
            name="quantity"
            render={({ field }) => (
              <FormItem>
                <FormLabel>New Quantity</FormLabel>
                <FormControl>
                  <Input type="number" inputMode="numeric" min={0} step={1} {...field} />
                </FormControl>
                <FormMessage role="alert" />
              </FormItem>
            )}
          />
          {change.kind === "reduce" && (
            <FormField
              control={form.control}
              name="destination"
              render={({ field }) => (
                <FormItem>
                  <fieldset className="grid gap-2">
                    <legend className="mb-2 text-sm font-medium">Where are these batteries going?</legend>
                    {DESTINATIONS.map((d) => (
                      <label
                        key={d.value}
                        className="flex cursor-pointer items-start gap-3 rounded-md border p-3 text-sm has-[:checked]:border-primary"
                      >
                        <input
                          type="radio"
                          name={field.name}
                          value={d.value}
                          checked={field.value === d.value}
                          onChange={() => field.onChange(d.value)}
                          onBlur={field.onBlur}
                          className="mt-0.5 size-4 accent-primary"
                        />
                        <span>
                          <span className="font-medium">{d.label}</span>
                          <span className="block text-muted-foreground">{d.hint}</span>
                        </span>
                      </label>
                    ))}
                    <FormMessage role="alert" />
                  </fieldset>
                </FormItem>
              )}
            />
          )}
          {change.kind === "increase" && (
            <p className="text-sm text-muted-foreground">
              {change.by} more {change.by === 1 ? "battery is" : "batteries are"} taken from Waiting.
            </p>
          )}
        </form>
      </Form>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={close}>
          Cancel
        </Button>
        <Button type="submit" form={`${ids}-form`}>
          Update
        </Button>
      </DialogFooter>
      <ConfirmActionDialog
        {...confirmDialog}
        type="charging_edit"
        summary={quantityChangeSummary(session.quantity, confirming?.quantity ?? 0, confirming?.destination ?? "")}
        values={{ quantity: confirming?.quantity ?? 0 }}
        labels={{ quantity: "New Quantity" }}
        pending={update.isPending}
        error={update.isError ? errorMessage(update.error, "Failed to update charging session quantity") : null}
        onConfirm={onConfirm}
      />
    </DialogContent>
  );
}
