import { zodResolver } from "@hookform/resolvers/zod";
import { BatteryChargingIcon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import { ConfirmActionDialog, type ConfirmValues } from "@/components/confirm-action-dialog";
import { FormCard } from "@/components/form-card";
import { CountFormField } from "@/components/count-form-field";
import { CountNote } from "@/components/count-note";
import { FormBody } from "@/components/form-body";
import { SelectFormField } from "@/components/select-form-field";
import { Button } from "@/components/ui/button";
import { CHARGER_TYPES } from "@/features/charging/api/get-charging-sessions";
import {
  NO_BATTERIES_TO_CHARGE,
  type StartChargingBody,
  type StartChargingValues,
  startChargingSchema,
  useStartCharging,
} from "@/features/charging/api/start-charging";
import { PackListField } from "@/features/scan/index";
import { usePendingConfirm } from "@/hooks/use-pending-confirm";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { batteryCount } from "@/lib/format";
import { packMoveCallbacks, packsBody, usePackLists, usePackTracking, useScannedCount } from "@/lib/packs";

const START_LISTS = ["packs"] as const;

const CHARGER_OPTIONS = CHARGER_TYPES.map((t) => ({ value: t, label: t }));

/**
 * StartChargingForm is the Start Charging Session card (spec part 2 §5): charger type and
 * quantity (1 to the waiting count), confirmed through the Confirm Action dialog (type
 * charge). waiting is the current waiting count (undefined while it loads); with none
 * waiting the submit is disabled and says 'No batteries available to charge'.
 */
export function StartChargingForm({ waiting }: { waiting: number | undefined }) {
  const max = waiting ?? 0;
  const schema = React.useMemo(() => startChargingSchema(max), [max]);
  const form = useForm<StartChargingValues, unknown, StartChargingBody>({
    resolver: zodResolver(schema),
    defaultValues: { chargerType: "", quantity: "" },
  });
  const [confirm, setConfirm, confirmDialog] = usePendingConfirm<StartChargingBody>();
  const start = useStartCharging();
  const none = waiting !== undefined && waiting <= 0;
  const tracking = usePackTracking();
  const packs = usePackLists(START_LISTS);
  useScannedCount(form, tracking, "quantity", packs.lists.packs);

  const onSubmit = form.handleSubmit((v) => {
    if (!packs.check(tracking, { packs: v.quantity })) return;
    start.reset();
    setConfirm(v);
  });

  const onConfirm = (values: ConfirmValues, idempotencyKey: string) => {
    if (!confirm) return;
    // the confirm dialog's Edit may change the quantity: check it again before sending
    const check = schema.safeParse({ chargerType: confirm.chargerType, quantity: String(values.quantity ?? 0) });
    if (!check.success) {
      toast({ title: "Error", description: check.error.issues[0]?.message, variant: "destructive" });
      return;
    }
    start.mutate(
      { ...check.data, idempotencyKey, ...packsBody(tracking, packs.lists) },
      packMoveCallbacks({
        packs,
        close: () => setConfirm(null),
        reset: () => form.reset(),
        success: "Charging session started successfully",
        failure: "Failed to start charging session",
      }),
    );
  };

  return (
    <FormCard
      icon={BatteryChargingIcon}
      title="Start Charging Session"
      description={
        <>
          Moves dead batteries from Waiting onto a charger. <CountNote value={waiting} words="waiting to charge." />
        </>
      }
    >
      <FormBody form={form} onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
        <SelectFormField control={form.control} name="chargerType" label="Charger Type" options={CHARGER_OPTIONS} placeholder="Select charger type" />
        <CountFormField
          control={form.control}
          name="quantity"
          label="Number of Batteries"
          min={1}
          max={max || undefined}
          placeholder={max > 0 ? `1 - ${max}` : "0"}
          tracking={tracking}
        />
        <PackListField id="charging.start.packs" label="Packs" purpose="handout" lists={packs} list="packs" tracking={tracking} count={form.watch("quantity")} disabled={none} className="sm:col-span-2" />
        <Button type="submit" className="sm:col-span-2" disabled={none || waiting === undefined || start.isPending}>
          <BatteryChargingIcon aria-hidden />
          {none ? NO_BATTERIES_TO_CHARGE : "Start Charging"}
        </Button>
      </FormBody>
      <ConfirmActionDialog
        {...confirmDialog}
        type="charge"
        summary={`Start charging ${batteryCount(confirm?.quantity ?? 0)}${confirm?.chargerType ? ` on a ${confirm.chargerType} charger` : ""}. They move from Waiting to Charging.`}
        values={{ quantity: confirm?.quantity ?? 0 }}
        packs={packs.lists.packs}
        refused={packs.refused}
        allowEdit={tracking !== "required"}
        pending={start.isPending}
        error={start.isError ? errorMessage(start.error, "Failed to start charging session") : null}
        onConfirm={onConfirm}
      />
    </FormCard>
  );
}
