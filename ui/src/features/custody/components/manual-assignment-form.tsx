import { zodResolver } from "@hookform/resolvers/zod";
import { UserPlusIcon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import { ConfirmActionDialog } from "@/components/confirm-action-dialog";
import { CountFormField } from "@/components/count-form-field";
import { CountNote } from "@/components/count-note";
import { FormBody } from "@/components/form-body";
import { FormCard } from "@/components/form-card";
import { TextareaFormField } from "@/components/textarea-form-field";
import { SelectFormField } from "@/components/select-form-field";
import { Button } from "@/components/ui/button";
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
import { PackListField } from "@/features/scan/index";
import { usePendingConfirm } from "@/hooks/use-pending-confirm";
import { errorMessage } from "@/lib/api-client";
import { displayName } from "@/lib/user";
import { packsBody, usePackLists, usePackTracking, useScannedCount, packMoveCallbacks } from "@/lib/packs";
import { batteryCount } from "@/lib/format";

const ASSIGN_LISTS = ["packs"] as const;

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
  const tracking = usePackTracking();
  const schema = React.useMemo(() => assignmentSchema(max), [max]);
  const form = useForm<AssignmentValues, unknown, AssignmentBody>({
    resolver: zodResolver(schema),
    defaultValues: { userId: "", quantity: "", assignmentType: "", notes: "" },
  });
  const [pending, setPending, confirmDialog] = usePendingConfirm<Pending>();
  const assign = useAssignBatteries();
  const packs = usePackLists(ASSIGN_LISTS);
  useScannedCount(form, tracking, "quantity", packs.lists.packs);

  const onSubmit = form.handleSubmit((v) => {
    const user = users.data?.find((u) => u.id === v.userId);
    if (!packs.check(tracking, { packs: v.quantity })) return;
    assign.reset();
    setPending({
      userId: v.userId,
      name: user ? displayName(user) : "the driver",
      quantity: v.quantity,
      assignmentType: v.assignmentType,
      notes: v.notes.trim(),
      packs: packsBody(tracking, packs.lists).packs ?? [],
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
      packMoveCallbacks({
        packs,
        close: () => setPending(null),
        reset: () => form.reset(),
        success: "Batteries assigned successfully",
        failure: "Failed to assign batteries",
      }),
    );
  };

  const submit = (
    <Button type="submit" className="sm:col-span-2" disabled={assign.isPending}>
      <UserPlusIcon aria-hidden /> Assign Batteries
    </Button>
  );
  return (
    <FormCard
      icon={UserPlusIcon}
      title="Manual Battery Assignment"
      description={
        <>
          Give ready batteries to a driver or admin. <CountNote value={ready} words="ready." />
        </>
      }
    >
      <FormBody form={form} onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" footer={submit}>
        <HolderFormField
          control={form.control}
          name="userId"
          label="Driver"
          className="sm:col-span-2"
          users={users.data ?? []}
          placeholder={users.isPending ? "Loading drivers..." : "Select driver"}
        />
        <CountFormField control={form.control} name="quantity" label="Quantity" min={1} max={max || undefined} tracking={tracking} />
        <SelectFormField control={form.control} name="assignmentType" label="Assignment Type" options={TYPE_OPTIONS} placeholder="Select type" />
        <PackListField id="assignment.packs" label="Packs" purpose="handout" lists={packs} list="packs" tracking={tracking} count={form.watch("quantity")} className="sm:col-span-2" />
        <TextareaFormField control={form.control} name="notes" label="Notes (optional)" rows={2} className="sm:col-span-2" />
      </FormBody>
      <ConfirmActionDialog
        {...confirmDialog}
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
        packs={pending?.packs}
        refused={packs.refused}
        notes={pending?.notes || undefined}
        allowEdit={false}
        pending={assign.isPending}
        error={assign.isError ? errorMessage(assign.error, "Failed to assign batteries") : null}
        onConfirm={onConfirm}
      />
    </FormCard>
  );
}
