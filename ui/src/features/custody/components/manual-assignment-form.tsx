import { zodResolver } from "@hookform/resolvers/zod";
import { UserPlusIcon } from "lucide-react";
import * as React from "react";
import { Controller, useForm } from "react-hook-form";
import { ConfirmActionDialog } from "@/components/confirm-action-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import {
  ASSIGNMENT_FORM_TYPES,
  type AssignmentValues,
  assignmentSchema,
  useAssignBatteries,
} from "@/features/custody/api/assign-batteries";
import { useEligibleHolders } from "@/features/custody/api/get-eligible-holders";
import { FieldError, HolderSelect } from "@/features/custody/components/holder-select";
import { formTypeLabel } from "@/features/custody/utils/form-type-label";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { displayName } from "@/lib/user";
import { batteryCount } from "@/lib/format";

type Pending = { userId: string; name: string; quantity: number; assignmentType: string; notes: string };

/**
 * ManualAssignmentForm is the Manual Battery Assignment card (spec part 2 §5): a driver
 * (role driver, admin or master_admin), a quantity no larger than the ready count, an
 * assignment type and optional notes, confirmed before it is sent. ready is the current
 * ready count (undefined while it loads).
 */
export function ManualAssignmentForm({ ready }: { ready: number | undefined }) {
  const users = useEligibleHolders();
  const max = ready ?? 0;
  const schema = React.useMemo(() => assignmentSchema(max), [max]);
  const form = useForm<AssignmentValues>({
    resolver: zodResolver(schema),
    defaultValues: { userId: "", quantity: "", assignmentType: "", notes: "" },
  });
  const { errors } = form.formState;
  const [pending, setPending] = React.useState<Pending | null>(null);
  const assign = useAssignBatteries();
  const ids = React.useId();

  const onSubmit = form.handleSubmit((v) => {
    const user = users.data?.find((u) => u.id === v.userId);
    assign.reset();
    setPending({
      userId: v.userId,
      name: user ? displayName(user) : "the driver",
      quantity: Number(v.quantity),
      assignmentType: v.assignmentType,
      notes: v.notes.trim(),
    });
  });

  const onConfirm = (_values: unknown, idempotencyKey: string) => {
    if (!pending) return;
    assign.mutate(
      { userId: pending.userId, quantity: pending.quantity, assignmentType: pending.assignmentType, notes: pending.notes, idempotencyKey },
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
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader>
        <CardTitle id={`${ids}-title`} className="flex items-center gap-2">
          <UserPlusIcon aria-hidden className="size-5 text-primary" />
          Manual Battery Assignment
        </CardTitle>
        <CardDescription>
          Give ready batteries to a driver or admin.{" "}
          {ready !== undefined && (
            <span>
              <strong className="tabular-nums">{ready}</strong> ready.
            </span>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-2 sm:col-span-2">
            <Label htmlFor={`${ids}-driver`}>Driver</Label>
            <Controller
              control={form.control}
              name="userId"
              render={({ field }) => (
                <HolderSelect
                  id={`${ids}-driver`}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  users={users.data ?? []}
                  placeholder={users.isPending ? "Loading drivers..." : "Select driver"}
                  error={errors.userId?.message}
                />
              )}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-quantity`}>Quantity</Label>
            <Input
              id={`${ids}-quantity`}
              type="number"
              inputMode="numeric"
              min={1}
              max={max || undefined}
              step={1}
              aria-invalid={errors.quantity ? true : undefined}
              aria-describedby={errors.quantity ? `${ids}-quantity-error` : undefined}
              {...form.register("quantity")}
            />
            <FieldError id={`${ids}-quantity-error`} message={errors.quantity?.message} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-type`}>Assignment Type</Label>
            <Controller
              control={form.control}
              name="assignmentType"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger
                    id={`${ids}-type`}
                    onBlur={field.onBlur}
                    aria-invalid={errors.assignmentType ? true : undefined}
                    aria-describedby={errors.assignmentType ? `${ids}-type-error` : undefined}
                  >
                    <SelectValue placeholder="Select type" />
                  </SelectTrigger>
                  <SelectContent>
                    {ASSIGNMENT_FORM_TYPES.map((t) => (
                      <SelectItem key={t} value={t}>
                        {formTypeLabel(t)}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
            <FieldError id={`${ids}-type-error`} message={errors.assignmentType?.message} />
          </div>
          <div className="grid gap-2 sm:col-span-2">
            <Label htmlFor={`${ids}-notes`}>Notes (optional)</Label>
            <Textarea id={`${ids}-notes`} rows={2} {...form.register("notes")} />
            <FieldError id={`${ids}-notes-error`} message={errors.notes?.message} />
          </div>
          <Button type="submit" className="sm:col-span-2" disabled={assign.isPending}>
            <UserPlusIcon aria-hidden /> Assign Batteries
          </Button>
        </form>
      </CardContent>
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
        notes={pending?.notes || undefined}
        allowEdit={false}
        pending={assign.isPending}
        error={assign.isError ? errorMessage(assign.error, "Failed to assign batteries") : null}
        onConfirm={onConfirm}
      />
    </Card>
  );
}
