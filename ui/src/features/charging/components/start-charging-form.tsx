import { zodResolver } from "@hookform/resolvers/zod";
import { BatteryChargingIcon } from "lucide-react";
import * as React from "react";
import { Controller, useForm } from "react-hook-form";
import { ConfirmActionDialog, type ConfirmValues } from "@/components/confirm-action-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { CHARGER_TYPES } from "@/features/charging/api/get-charging-sessions";
import {
  NO_BATTERIES_TO_CHARGE,
  type StartChargingValues,
  startChargingSchema,
  useStartCharging,
} from "@/features/charging/api/start-charging";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";

/**
 * StartChargingForm is the Start Charging Session card (spec part 2 §5): charger type and
 * quantity (1 to the waiting count), confirmed through the Confirm Action dialog (type
 * charge). waiting is the current waiting count (undefined while it loads); with none
 * waiting the submit is disabled and says 'No batteries available to charge'.
 */
export function StartChargingForm({ waiting }: { waiting: number | undefined }) {
  const max = waiting ?? 0;
  const schema = React.useMemo(() => startChargingSchema(max), [max]);
  const form = useForm<StartChargingValues>({
    resolver: zodResolver(schema),
    defaultValues: { chargerType: "", quantity: "" },
  });
  const { errors } = form.formState;
  const [confirm, setConfirm] = React.useState<{ chargerType: string; quantity: number } | null>(null);
  const start = useStartCharging();
  const ids = React.useId();
  const none = waiting !== undefined && waiting <= 0;

  const onSubmit = form.handleSubmit((v) => {
    start.reset();
    setConfirm({ chargerType: v.chargerType, quantity: Number(v.quantity) });
  });

  const onConfirm = (values: ConfirmValues, idempotencyKey: string) => {
    if (!confirm) return;
    const quantity = values.quantity ?? 0;
    const check = schema.safeParse({ chargerType: confirm.chargerType, quantity: String(quantity) });
    if (!check.success) {
      toast({ title: "Error", description: check.error.issues[0]?.message, variant: "destructive" });
      return;
    }
    start.mutate(
      { chargerType: confirm.chargerType, quantity, idempotencyKey },
      {
        onSuccess: (res) => {
          toast({ title: res?.message || "Charging session started successfully" });
          setConfirm(null);
          form.reset();
        },
        onError: (err) =>
          toast({ title: "Error", description: errorMessage(err, "Failed to start charging session"), variant: "destructive" }),
      },
    );
  };

  return (
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader>
        <CardTitle id={`${ids}-title`} className="flex items-center gap-2">
          <BatteryChargingIcon aria-hidden className="size-5 text-primary" />
          Start Charging Session
        </CardTitle>
        <CardDescription>
          Moves dead batteries from Waiting onto a charger.{" "}
          {waiting !== undefined && (
            <span>
              <strong className="tabular-nums">{waiting}</strong> waiting to charge.
            </span>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-charger`}>Charger Type</Label>
            <Controller
              control={form.control}
              name="chargerType"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger
                    id={`${ids}-charger`}
                    aria-invalid={errors.chargerType ? true : undefined}
                    aria-describedby={errors.chargerType ? `${ids}-charger-error` : undefined}
                    onBlur={field.onBlur}
                  >
                    <SelectValue placeholder="Select charger type" />
                  </SelectTrigger>
                  <SelectContent>
                    {CHARGER_TYPES.map((t) => (
                      <SelectItem key={t} value={t}>
                        {t}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
            {errors.chargerType && (
              <p id={`${ids}-charger-error`} className="text-sm text-destructive">
                {errors.chargerType.message}
              </p>
            )}
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-quantity`}>Number of Batteries</Label>
            <Input
              id={`${ids}-quantity`}
              type="number"
              inputMode="numeric"
              min={1}
              max={max || undefined}
              step={1}
              placeholder={max > 0 ? `1 - ${max}` : "0"}
              aria-invalid={errors.quantity ? true : undefined}
              aria-describedby={errors.quantity ? `${ids}-quantity-error` : undefined}
              {...form.register("quantity")}
            />
            {errors.quantity && (
              <p id={`${ids}-quantity-error`} className="text-sm text-destructive">
                {errors.quantity.message}
              </p>
            )}
          </div>
          <Button type="submit" className="sm:col-span-2" disabled={none || waiting === undefined || start.isPending}>
            <BatteryChargingIcon aria-hidden />
            {none ? NO_BATTERIES_TO_CHARGE : "Start Charging"}
          </Button>
        </form>
      </CardContent>
      <ConfirmActionDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        type="charge"
        values={{ quantity: confirm?.quantity ?? 0 }}
        details={{ chargerType: confirm?.chargerType }}
        pending={start.isPending}
        error={start.isError ? errorMessage(start.error, "Failed to start charging session") : null}
        onConfirm={onConfirm}
      />
    </Card>
  );
}
