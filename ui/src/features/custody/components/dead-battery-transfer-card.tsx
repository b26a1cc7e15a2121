import { BatteryWarningIcon } from "lucide-react";
import * as React from "react";
import { Controller, useForm } from "react-hook-form";
import { ConfirmActionDialog, type ConfirmValues } from "@/components/confirm-action-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { useDeadBatteryTransfer } from "@/features/custody/api/dead-battery-transfer";
import { useBatteryHolders } from "@/features/custody/api/get-battery-holders";
import { useEligibleHolders } from "@/features/custody/api/get-eligible-holders";
import { FieldError, HolderSelect } from "@/features/custody/components/holder-select";
import { type DeadTransferValues, validateDeadTransfer } from "@/features/custody/utils/swap-validation";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { displayName } from "@/lib/user";
import { batteryCount } from "@/lib/format";

const EMPTY: DeadTransferValues = { fromUserId: "", toUserId: "", deadBatteries: "", notes: "" };

/**
 * DeadBatteryTransferCard moves dead batteries from one holder to another (POST
 * /api/admin/dead-battery-transfer): from and to required, at least 1 dead battery
 * (spec part 2 §5), confirmed as a driver swap of dead batteries only.
 */
export function DeadBatteryTransferCard() {
  const users = useEligibleHolders();
  const holders = useBatteryHolders();
  const form = useForm<DeadTransferValues>({ defaultValues: EMPTY });
  const { errors } = form.formState;
  const [pending, setPending] = React.useState<(DeadTransferValues & { dead: number }) | null>(null);
  const transfer = useDeadBatteryTransfer();
  const ids = React.useId();
  const counts = React.useMemo(() => new Map((holders.data ?? []).map((h) => [h.user.id, h.total])), [holders.data]);
  const names = React.useMemo(() => new Map((users.data ?? []).map((u) => [u.id, displayName(u)])), [users.data]);

  const onSubmit = form.handleSubmit((values) => {
    form.clearErrors();
    const result = validateDeadTransfer(values, holders.data ?? []);
    if (!result.ok) {
      form.setError(result.error.field, { message: result.error.message }, { shouldFocus: true });
      return;
    }
    transfer.reset();
    setPending({ ...values, dead: result.dead });
  });

  const onConfirm = (confirmed: ConfirmValues, idempotencyKey: string) => {
    if (!pending) return;
    const result = validateDeadTransfer({ ...pending, deadBatteries: String(confirmed.deadBatteries ?? 0) }, holders.data ?? []);
    if (!result.ok) {
      toast({ title: "Error", description: result.error.message, variant: "destructive" });
      return;
    }
    transfer.mutate(
      { fromUserId: pending.fromUserId, toUserId: pending.toUserId, deadBatteries: result.dead, notes: pending.notes.trim(), idempotencyKey },
      {
        onSuccess: (res) => {
          toast({ title: res?.message || "Dead batteries transferred successfully" });
          setPending(null);
          form.reset(EMPTY);
        },
        onError: (err) =>
          toast({ title: "Error", description: errorMessage(err, "Failed to transfer dead batteries"), variant: "destructive" }),
      },
    );
  };

  return (
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader>
        <CardTitle id={`${ids}-title`} className="flex items-center gap-2">
          <BatteryWarningIcon aria-hidden className="size-5 text-primary" />
          Dead Battery Transfer
        </CardTitle>
        <CardDescription>Hand dead batteries from one holder to another.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
          {(["fromUserId", "toUserId"] as const).map((name) => (
            <div key={name} className="grid gap-2">
              <Label htmlFor={`${ids}-${name}`}>{name === "fromUserId" ? "From Driver" : "To Driver"}</Label>
              <Controller
                control={form.control}
                name={name}
                render={({ field }) => (
                  <HolderSelect
                    id={`${ids}-${name}`}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    users={users.data ?? []}
                    counts={counts}
                    placeholder="Select driver"
                    error={errors[name]?.message}
                  />
                )}
              />
            </div>
          ))}
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-dead`}>Dead Batteries</Label>
            <Input
              id={`${ids}-dead`}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              aria-invalid={errors.deadBatteries ? true : undefined}
              aria-describedby={errors.deadBatteries ? `${ids}-dead-error` : undefined}
              {...form.register("deadBatteries")}
            />
            <FieldError id={`${ids}-dead-error`} message={errors.deadBatteries?.message} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-notes`}>Notes (optional)</Label>
            <Textarea id={`${ids}-notes`} rows={1} {...form.register("notes")} />
          </div>
          <Button type="submit" variant="secondary" className="sm:col-span-2" disabled={transfer.isPending}>
            Transfer Dead Batteries
          </Button>
        </form>
      </CardContent>
      <ConfirmActionDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        type="driver_swap"
        title="Confirm Dead Battery Transfer"
        values={{ goodBatteries: 0, deadBatteries: pending?.dead ?? 0 }}
        summary={
          <>
            <strong>{(pending && names.get(pending.fromUserId)) || "The giving driver"}</strong> gives{" "}
            <strong>{(pending && names.get(pending.toUserId)) || "the receiving driver"}</strong>{" "}
            {batteryCount(pending?.dead ?? 0)} (0 good, {pending?.dead ?? 0} dead).
          </>
        }
        notes={pending?.notes.trim() || undefined}
        allowEdit={false}
        pending={transfer.isPending}
        error={transfer.isError ? errorMessage(transfer.error, "Failed to transfer dead batteries") : null}
        onConfirm={onConfirm}
      />
    </Card>
  );
}
