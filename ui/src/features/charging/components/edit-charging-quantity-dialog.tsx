import * as React from "react";
import { ConfirmActionDialog, type ConfirmValues } from "@/components/confirm-action-dialog";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { ChargingSession } from "@/features/charging/api/get-charging-sessions";
import {
  type QuantityDestination,
  useUpdateChargingSessionQuantity,
} from "@/features/charging/api/update-charging-session-quantity";
import { quantityChange } from "@/features/charging/utils/session-status";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";

/** DESTINATIONS are the answers to 'Where are these batteries going?' (spec part 1 §2). */
const DESTINATIONS: { value: QuantityDestination; label: string; hint: string }[] = [
  { value: "ready", label: "Good - Fully Charged", hint: "They go to the Ready count." },
  { value: "waiting", label: "Dead - Needs More Charging", hint: "They go back to the Waiting count." },
];

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
  const [typed, setTyped] = React.useState(String(session.quantity));
  const [destination, setDestination] = React.useState<QuantityDestination | "">("");
  const [error, setError] = React.useState<string | null>(null);
  const [confirming, setConfirming] = React.useState(false);
  const update = useUpdateChargingSessionQuantity();
  const change = quantityChange(session.quantity, typed);
  const ids = React.useId();

  const onUpdate = (e: React.FormEvent) => {
    e.preventDefault();
    if (!/^\d+$/.test(typed.trim())) {
      setError("Please enter a valid number 0 or greater");
      return;
    }
    if (change.kind === "none") {
      close();
      return;
    }
    if (change.kind === "reduce" && !destination) {
      setError("Please choose where these batteries are going");
      return;
    }
    setError(null);
    update.reset();
    setConfirming(true);
  };

  const onConfirm = (values: ConfirmValues, idempotencyKey: string) => {
    const quantity = values.quantity ?? 0;
    if (quantity === session.quantity) {
      setConfirming(false);
      close();
      return;
    }
    // an Edit in the confirm dialog may turn a reduction into an increase: increases draw from waiting
    const dest: QuantityDestination = quantity < session.quantity && destination ? destination : "waiting";
    update.mutate(
      { id: session.id, quantity, destination: dest, idempotencyKey },
      {
        onSuccess: () => {
          toast({ title: "Charging session quantity updated successfully" });
          setConfirming(false);
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

  const newQuantity = Number(typed.trim());
  return (
    <DialogContent>
      <DialogHeader>
        <DialogTitle>Edit Charging Session Quantity</DialogTitle>
        <DialogDescription>
          {session.chargerType} session. Current quantity: <strong>{session.quantity}</strong>
        </DialogDescription>
      </DialogHeader>
      <form id={`${ids}-form`} noValidate onSubmit={onUpdate} className="grid gap-4">
        <div className="grid gap-2">
          <Label htmlFor={`${ids}-quantity`}>New Quantity</Label>
          <Input
            id={`${ids}-quantity`}
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            value={typed}
            aria-invalid={error ? true : undefined}
            onChange={(e) => setTyped(e.target.value)}
          />
        </div>
        {change.kind === "reduce" && (
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Where are these batteries going?</legend>
            {DESTINATIONS.map((d) => (
              <label key={d.value} className="flex cursor-pointer items-start gap-3 rounded-md border p-3 text-sm has-[:checked]:border-primary">
                <input
                  type="radio"
                  name={`${ids}-destination`}
                  value={d.value}
                  checked={destination === d.value}
                  onChange={() => setDestination(d.value)}
                  className="mt-0.5 size-4 accent-primary"
                />
                <span>
                  <span className="font-medium">{d.label}</span>
                  <span className="block text-muted-foreground">{d.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
        )}
        {change.kind === "increase" && (
          <p className="text-sm text-muted-foreground">
            {change.by} more {change.by === 1 ? "battery is" : "batteries are"} taken from Waiting.
          </p>
        )}
        {error && (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
      </form>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={close}>
          Cancel
        </Button>
        <Button type="submit" form={`${ids}-form`}>
          Update
        </Button>
      </DialogFooter>
      <ConfirmActionDialog
        open={confirming}
        onOpenChange={setConfirming}
        type="charging_edit"
        values={{ quantity: Number.isFinite(newQuantity) ? newQuantity : 0 }}
        details={{
          chargerType: session.chargerType,
          previousQuantity: session.quantity,
          destination: destination || undefined,
        }}
        pending={update.isPending}
        error={update.isError ? errorMessage(update.error, "Failed to update charging session quantity") : null}
        onConfirm={onConfirm}
      />
    </DialogContent>
  );
}
