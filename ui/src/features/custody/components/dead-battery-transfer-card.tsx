import { BatteryWarningIcon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import { ConfirmActionDialog, type ConfirmValues } from "@/components/confirm-action-dialog";
import { CountFormField } from "@/components/count-form-field";
import { FormBody } from "@/components/form-body";
import { FormCard } from "@/components/form-card";
import { TextareaFormField } from "@/components/textarea-form-field";
import { Button } from "@/components/ui/button";
import { useDeadBatteryTransfer } from "@/features/custody/api/dead-battery-transfer";
import { useBatteryHolders } from "@/features/custody/api/get-battery-holders";
import { useEligibleHolders } from "@/features/custody/api/get-eligible-holders";
import { HolderFormField } from "@/features/custody/components/holder-select";
import { type DeadTransferValues, validateDeadTransfer } from "@/features/custody/utils/swap-validation";
import { PackListField } from "@/features/scan/index";
import { usePendingConfirm } from "@/hooks/use-pending-confirm";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { displayName } from "@/lib/user";
import { batteryCount } from "@/lib/format";
import { packsBody, usePackLists, usePackTracking, useScannedCount, packMoveCallbacks } from "@/lib/packs";

const TRANSFER_LISTS = ["deadPacks"] as const;

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
  const [pending, setPending, confirmDialog] = usePendingConfirm<(DeadTransferValues & { dead: number })>();
  const transfer = useDeadBatteryTransfer();
  const counts = React.useMemo(() => new Map((holders.data ?? []).map((h) => [h.user.id, h.total])), [holders.data]);
  const names = React.useMemo(() => new Map((users.data ?? []).map((u) => [u.id, displayName(u)])), [users.data]);
  const tracking = usePackTracking();
  const packs = usePackLists(TRANSFER_LISTS);
  useScannedCount(form, tracking, "deadBatteries", packs.lists.deadPacks);

  const onSubmit = form.handleSubmit((values) => {
    form.clearErrors();
    const result = validateDeadTransfer(values, holders.data ?? []);
    if (!result.ok) {
      form.setError(result.error.field, { message: result.error.message }, { shouldFocus: true });
      return;
    }
    if (!packs.check(tracking, { deadPacks: result.dead })) return;
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
      {
        fromUserId: pending.fromUserId,
        toUserId: pending.toUserId,
        deadBatteries: result.dead,
        notes: pending.notes.trim(),
        idempotencyKey,
        ...packsBody(tracking, packs.lists),
      },
      packMoveCallbacks({
        packs,
        close: () => setPending(null),
        reset: () => form.reset(EMPTY),
        success: "Dead batteries transferred successfully",
        failure: "Failed to transfer dead batteries",
      }),
    );
  };

  const submit = (
    <Button type="submit" variant="secondary" className="sm:col-span-2" disabled={transfer.isPending}>
      Transfer Dead Batteries
    </Button>
  );
  return (
    <FormCard icon={BatteryWarningIcon} title="Dead Battery Transfer" description="Hand dead batteries from one holder to another.">
      <FormBody form={form} onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" footer={submit}>
        {(["fromUserId", "toUserId"] as const).map((name) => (
          <HolderFormField
            key={name}
            control={form.control}
            name={name}
            label={name === "fromUserId" ? "From Driver" : "To Driver"}
            users={users.data ?? []}
            counts={counts}
            placeholder="Select driver"
          />
        ))}
        <CountFormField control={form.control} name="deadBatteries" label="Dead Batteries" min={1} tracking={tracking} />
        <TextareaFormField control={form.control} name="notes" label="Notes (optional)" rows={1} />
        <PackListField id="transfer.deadPacks" label="Dead packs" purpose="handout" lists={packs} list="deadPacks" tracking={tracking} count={form.watch("deadBatteries")} className="sm:col-span-2" />
      </FormBody>
      <ConfirmActionDialog
        {...confirmDialog}
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
        packs={packs.lists.deadPacks}
        refused={packs.refused}
        notes={pending?.notes.trim() || undefined}
        allowEdit={false}
        pending={transfer.isPending}
        error={transfer.isError ? errorMessage(transfer.error, "Failed to transfer dead batteries") : null}
        onConfirm={onConfirm}
      />
    </FormCard>
  );
}
