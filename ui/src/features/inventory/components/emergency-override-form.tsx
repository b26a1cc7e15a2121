import { zodResolver } from "@hookform/resolvers/zod";
import { SirenIcon } from "lucide-react";
import { useForm } from "react-hook-form";
import { ConfirmActionDialog } from "@/components/confirm-action-dialog";
import { CountFormField } from "@/components/count-form-field";
import { FormBody } from "@/components/form-body";
import { FormCard } from "@/components/form-card";
import { Button } from "@/components/ui/button";
import { type OverrideCounts, type OverrideValues, overrideSchema, useEmergencyOverride } from "@/features/inventory/api/emergency-override";
import { usePendingConfirm } from "@/hooks/use-pending-confirm";
import { useInventory } from "@/lib/inventory";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { toastError } from "@/lib/toast-error";

const FIELDS: { name: keyof OverrideValues; label: string; min: number }[] = [
  { name: "ready", label: "Ready", min: 0 },
  { name: "waiting", label: "Waiting", min: 0 },
  { name: "charging", label: "Charging", min: 0 },
  { name: "total", label: "Total", min: 1 },
];

/**
 * EmergencyOverrideForm is the Emergency Inventory Override form (spec part 2 §5): Ready,
 * Waiting, Charging and Total, each required (inputs min 0, total min 1), confirmed, then
 * POST /api/admin/emergency-inventory-override.
 */
export function EmergencyOverrideForm() {
  const inventory = useInventory();
  const form = useForm<OverrideValues, unknown, OverrideCounts>({
    resolver: zodResolver(overrideSchema),
    defaultValues: { ready: "", waiting: "", charging: "", total: "" },
  });
  const [pending, setPending, confirmDialog] = usePendingConfirm<OverrideCounts>();
  const override = useEmergencyOverride();

  const fillCurrent = () => {
    const d = inventory.data;
    if (!d) return;
    form.reset({ ready: String(d.ready), waiting: String(d.waiting), charging: String(d.charging), total: String(d.total) });
  };

  const onSubmit = form.handleSubmit((v) => {
    override.reset();
    setPending(v);
  });

  const onConfirm = (_values: unknown, idempotencyKey: string) => {
    if (!pending) return;
    override.mutate(
      { ...pending, idempotencyKey },
      {
        onSuccess: () => {
          toast({ title: "Emergency override applied successfully!" });
          setPending(null);
          form.reset();
        },
        onError: (err) =>
          toastError(err, "Failed to apply emergency override"),
      },
    );
  };

  const actions = (
    <div className="flex flex-wrap gap-2">
      <Button type="button" variant="outline" onClick={fillCurrent} disabled={!inventory.data}>
        Use Current Counts
      </Button>
      <Button type="submit" variant="destructive" disabled={override.isPending}>
        Apply Override
      </Button>
    </div>
  );
  return (
    <FormCard
      icon={SirenIcon}
      iconClassName="text-destructive"
      title="Emergency Inventory Override"
      description="Sets the pool counts outright after a physical count. The difference is recorded as an adjustment."
      className="border-destructive/40"
    >
      <FormBody form={form} onSubmit={onSubmit} className="grid gap-4" footer={actions}>
        <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          {FIELDS.map((f) => (
            <CountFormField key={f.name} control={form.control} name={f.name} label={f.label} min={f.min} placeholder={inventory.data ? String(inventory.data[f.name]) : undefined} />
          ))}
        </div>
      </FormBody>
      <ConfirmActionDialog
        {...confirmDialog}
        type="edit"
        title="Confirm Emergency Override"
        values={{ quantity: pending?.total ?? 0 }}
        summary={
          <>
            Correct <strong>the inventory counts</strong>. Affected balances are recalculated.
          </>
        }
        labels={{ quantity: "Total" }}
        notes={
          pending
            ? `Ready ${pending.ready}, Waiting ${pending.waiting}, Charging ${pending.charging}, Total ${pending.total}`
            : undefined
        }
        pending={override.isPending}
        error={override.isError ? errorMessage(override.error, "Failed to apply emergency override") : null}
        onConfirm={onConfirm}
      />
    </FormCard>
  );
}
