import { zodResolver } from "@hookform/resolvers/zod";
import { UserPlusIcon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import { ConfirmActionDialog } from "@/components/confirm-action-dialog";
import { FormCard } from "@/components/form-card";
import { InputFormField } from "@/components/form-fields";
import { TextareaFormField } from "@/components/textarea-form-field";
import { SelectFormField } from "@/components/select-form-field";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import {
  ASSIGNMENT_FORM_TYPES,
  type AssignmentBody,
  type AssignmentValues,
  assignmentSchema,
  useAssignBatteries,
} from "@/features/custody/api/assign-batteries";
import { useEligibleHolders } from "@/features/custody/api/get-eligible-holders";
import { HolderFormField } from "@/features/custody/components/holder-select";
import { formTypeLabel } from "@/features/custody/utils/form-type-label";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { displayName } from "@/lib/user";
import { useInventory } from "@/lib/inventory";
import { packTracking, splitSerials } from "@/lib/packs";
import { batteryCount } from "@/lib/format";

const TYPE_OPTIONS = ASSIGNMENT_FORM_TYPES.map((t) => ({ value: t, label: formTypeLabel(t) }));

type Pending = { userId: string; name: string; quantity: number; assignmentType: string; notes: string; packs: string[] };

/**
 * ManualAssignmentForm is the Manual Battery Assignment card (spec part 2 §5): a driver
 * (role driver, admin or master_admin), a quantity no larger than the ready count, an
 * assignment type and optional notes, confirmed before it is sent. ready is the current
 * ready count (undefined while it loads).
 */
export function ManualAssignmentForm({ ready }: { ready: number | undefined }) {
  const users = useEligibleHolders();
  const max = ready ?? 0;
  const tracking = packTracking(useInventory().data?.settings);
  const schema = React.useMemo(() => assignmentSchema(max, tracking), [max, tracking]);
  const form = useForm<AssignmentValues, unknown, AssignmentBody>({
    resolver: zodResolver(schema),
    defaultValues: { userId: "", quantity: "", assignmentType: "", notes: "", packs: "" },
  });
  const [pending, setPending] = React.useState<Pending | null>(null);
  const assign = useAssignBatteries();

  const onSubmit = form.handleSubmit((v) => {
    const user = users.data?.find((u) => u.id === v.userId);
    assign.reset();
    setPending({
      userId: v.userId,
      name: user ? displayName(user) : "the driver",
      quantity: v.quantity,
      assignmentType: v.assignmentType,
      notes: v.notes.trim(),
      packs: tracking === "off" ? [] : splitSerials(v.packs ?? ""),
    });
  });

  const onConfirm = (_values: unknown, idempotencyKey: string) => {
    if (!pending) return;
    assign.mutate(
      {
        userId: pending.userId,
        quantity: pending.quantity,
        assignmentType: pending.assignmentType,
        notes: pending.notes,
        packs: pending.packs,
        idempotencyKey,
      },
      {
        onSuccess: (res) => {
          toast({ title: res?.message || "Batteries assigned successfully" });
          setPending(null);
          form.reset();
        },
        onError: (err) =>
          toast({ title: "Error", description: errorMessage(err, "Failed to assign batteries"), variant: "destructive" }),
      },
    );
  };

  return (
    <FormCard
      icon={UserPlusIcon}
      title="Manual Battery Assignment"
      description={
        <>
          Give ready batteries to a driver or admin.{" "}
          {ready !== undefined && (
            <span>
              <strong className="tabular-nums">{ready}</strong> ready.
            </span>
          )}
        </>
      }
    >
      <Form {...form}>
        <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
          <HolderFormField
            control={form.control}
            name="userId"
            label="Driver"
            className="sm:col-span-2"
            users={users.data ?? []}
            placeholder={users.isPending ? "Loading drivers..." : "Select driver"}
          />
          <InputFormField
            control={form.control}
            name="quantity"
            label="Quantity"
            type="number"
            inputMode="numeric"
            min={1}
            max={max || undefined}
            step={1}
          />
          <SelectFormField control={form.control} name="assignmentType" label="Assignment Type" options={TYPE_OPTIONS} placeholder="Select type" />
          {tracking !== "off" && (
            <InputFormField
              control={form.control}
              name="packs"
              label={tracking === "required" ? "Pack serials" : "Pack serials (optional)"}
              description="One serial per battery, separated by commas or spaces."
              className="sm:col-span-2"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
            />
          )}
          <TextareaFormField control={form.control} name="notes" label="Notes (optional)" rows={2} className="sm:col-span-2" />
          <Button type="submit" className="sm:col-span-2" disabled={assign.isPending}>
            <UserPlusIcon aria-hidden /> Assign Batteries
          </Button>
        </form>
      </Form>
      <ConfirmActionDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        // an assignment is shown as the Ready pool giving the driver good batteries
        type="driver_swap"
        title="Confirm Battery Assignment"
        values={{ goodBatteries: pending?.quantity ?? 0, deadBatteries: 0 }}
        summary={
          <>
            <strong>The Ready pool</strong> gives{" "}
            <strong>{pending ? `${pending.name} (${formTypeLabel(pending.assignmentType)})` : "the receiver"}</strong>{" "}
            {batteryCount(pending?.quantity ?? 0)}.
          </>
        }
        notes={[pending?.packs.length ? `Packs: ${pending.packs.join(", ")}` : "", pending?.notes ?? ""].filter(Boolean).join("\n") || undefined}
        allowEdit={false}
        pending={assign.isPending}
        error={assign.isError ? errorMessage(assign.error, "Failed to assign batteries") : null}
        onConfirm={onConfirm}
      />
    </FormCard>
  );
}
