import { zodResolver } from "@hookform/resolvers/zod";
import { PencilIcon, Trash2Icon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import { ConfirmActionDialog } from "@/components/confirm-action-dialog";
import { InputFormField } from "@/components/form-fields";
import { TextareaFormField } from "@/components/textarea-form-field";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Form } from "@/components/ui/form";
import type { FeedMovement } from "@/features/activity/api/get-recent-activity";
import { useDeleteMovement } from "@/features/activity/api/delete-movement";
import { useUpdateMovement } from "@/features/activity/api/update-movement";
import {
  INVALID_MOVEMENT_INPUT,
  type MovementCorrection,
  type MovementDraft,
  correctionSchema,
  initialDraft,
  isEditableType,
  usesTotal,
} from "@/features/activity/utils/movement-edit";
import { movementSummary, personName, sendDeleteWarning } from "@/features/activity/utils/movement-summary";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { movementNotes, movementTypeLabel } from "@/lib/format-ops";
import { batteryCount, formatDateTime } from "@/lib/format";

type Step = { kind: "options" } | { kind: "edit" } | { kind: "confirmEdit"; correction: MovementCorrection } | { kind: "confirmDelete" };

/**
 * MovementOptionsDialog is opened from an activity entry by admin roles (spec part 1 §2):
 * a readable summary, Edit/Correct (pickup, dropoff, swap halves, adjustment) and Delete,
 * both through the Confirm Action dialog. movement null means closed.
 */
export function MovementOptionsDialog({ movement, onClose }: { movement: FeedMovement | null; onClose: () => void }) {
  const [step, setStep] = React.useState<Step>({ kind: "options" });
  const schema = React.useMemo(() => correctionSchema(movement?.type ?? ""), [movement?.type]);
  const form = useForm<MovementDraft, unknown, MovementCorrection>({
    resolver: zodResolver(schema),
    defaultValues: { good: "", dead: "", total: "", notes: "" },
  });
  const invalid = form.formState.errors.root?.message;
  const update = useUpdateMovement();
  const remove = useDeleteMovement();
  const ids = React.useId();

  React.useEffect(() => {
    if (movement) setStep({ kind: "options" });
  }, [movement]);

  if (!movement) return null;
  const note = movementNotes(movement);
  const editable = isEditableType(movement.type);
  const total = usesTotal(movement.type);
  const subject = `${movementTypeLabel(movement.type)} by ${personName(movement)}, ${formatDateTime(movement.createdAt)}`;
  const close = () => {
    setStep({ kind: "options" });
    onClose();
  };

  const startEdit = () => {
    form.reset(initialDraft(movement, note));
    setStep({ kind: "edit" });
  };
  const submitEdit = form.handleSubmit(
    (correction) => {
      update.reset();
      setStep({ kind: "confirmEdit", correction });
    },
    (errors) => {
      if (errors.root) toast({ ...INVALID_MOVEMENT_INPUT, variant: "destructive" });
    },
  );

  const optionsOpen = step.kind === "options" || step.kind === "edit";
  return (
    <>
      <Dialog open={optionsOpen} onOpenChange={(o) => !o && close()}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{step.kind === "edit" ? "Correct Movement" : "Movement Options"}</DialogTitle>
            <DialogDescription>{movementSummary(movement)}</DialogDescription>
          </DialogHeader>
          <div className="space-y-1 text-sm">
            <p className="flex flex-wrap items-center gap-2">
              <Badge variant="secondary">{movementTypeLabel(movement.type)}</Badge>
              <span className="text-muted-foreground">{formatDateTime(movement.createdAt)}</span>
            </p>
            {note && <p className="break-words">“{note}”</p>}
          </div>

          {step.kind === "edit" ? (
            <Form {...form}>
              <form id={`${ids}-edit`} className="grid gap-3" noValidate onSubmit={submitEdit}>
                {total ? (
                  <InputFormField control={form.control} type="number" inputMode="numeric" min={0} name="total" label="Total" />
                ) : (
                  <div className="grid grid-cols-2 gap-3">
                    <InputFormField control={form.control} type="number" inputMode="numeric" min={0} name="good" label="Good" />
                    <InputFormField control={form.control} type="number" inputMode="numeric" min={0} name="dead" label="Dead" />
                  </div>
                )}
                {/* the toast sits outside the modal, hidden from assistive tech while it is open: say it here too */}
                {invalid && (
                  <p role="alert" className="text-sm text-destructive">
                    {invalid}
                  </p>
                )}
                <TextareaFormField control={form.control} name="notes" label="Notes (optional)" rows={2} maxLength={2000} />
              </form>
            </Form>
          ) : (
            <p className="rounded-md bg-muted p-3 text-xs text-muted-foreground">
              Editing recalculates affected balances. Deleting returns the batteries to their original location.
            </p>
          )}

          {/* keyed apart: a click on Edit/Correct must not land, re-rendered, on Save Correction */}
          <DialogFooter key={step.kind}>
            {step.kind === "edit" ? (
              <>
                <Button variant="outline" onClick={() => setStep({ kind: "options" })}>
                  Back
                </Button>
                <Button type="submit" form={`${ids}-edit`}>
                  Save Correction
                </Button>
              </>
            ) : (
              <>
                <Button variant="outline" onClick={close}>
                  Close
                </Button>
                {editable && (
                  <Button variant="secondary" onClick={startEdit}>
                    <PencilIcon aria-hidden />
                    Edit/Correct
                  </Button>
                )}
                <Button
                  variant="destructive"
                  onClick={() => {
                    remove.reset();
                    setStep({ kind: "confirmDelete" });
                  }}
                >
                  <Trash2Icon aria-hidden />
                  Delete
                </Button>
              </>
            )}
          </DialogFooter>
        </DialogContent>
      </Dialog>

      <ConfirmActionDialog
        open={step.kind === "confirmEdit"}
        onOpenChange={(o) => !o && setStep({ kind: "edit" })}
        type="edit"
        values={
          step.kind === "confirmEdit"
            ? total
              ? { quantity: step.correction.goodBatteries }
              : { goodBatteries: step.correction.goodBatteries, deadBatteries: step.correction.deadBatteries }
            : {}
        }
        summary={
          <>
            Correct <strong>{subject}</strong>. Affected balances are recalculated.
          </>
        }
        labels={{ quantity: "Total" }}
        notes={step.kind === "confirmEdit" ? step.correction.notes : undefined}
        pending={update.isPending}
        error={update.error ? errorMessage(update.error, "Failed to update movement") : null}
        onConfirm={(_values, idempotencyKey) => {
          if (step.kind !== "confirmEdit") return;
          update.mutate(
            { id: movement.id, ...step.correction, idempotencyKey },
            {
              onSuccess: () => {
                toast({ title: "Movement Updated", description: "The movement has been corrected successfully." });
                close();
              },
              onError: (err) =>
                toast({ title: "Update Failed", description: errorMessage(err, "Failed to update movement"), variant: "destructive" }),
            },
          );
        }}
      />

      <DeleteMovementConfirm
        open={step.kind === "confirmDelete"}
        movement={movement}
        subject={subject}
        pending={remove.isPending}
        error={remove.error ? errorMessage(remove.error, "Failed to delete movement") : null}
        onCancel={() => setStep({ kind: "options" })}
        onConfirm={(idempotencyKey) =>
          remove.mutate(
            { id: movement.id, idempotencyKey },
            {
              onSuccess: () => {
                toast({ title: "Movement Deleted", description: "The movement has been deleted and batteries returned." });
                close();
              },
              onError: (err) =>
                toast({ title: "Delete Failed", description: errorMessage(err, "Failed to delete movement"), variant: "destructive" }),
            },
          )
        }
      />
    </>
  );
}

/** DeleteMovementConfirm is the Confirm Action dialog of type delete for one movement; a send to another city adds its warning. */
export function DeleteMovementConfirm({
  open,
  movement,
  subject,
  pending,
  error,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  movement: Pick<FeedMovement, "quantity" | "type" | "notes">;
  subject: string;
  pending: boolean;
  error?: string | null;
  onCancel: () => void;
  onConfirm: (idempotencyKey: string) => void;
}) {
  const warning = sendDeleteWarning(movement);
  return (
    <ConfirmActionDialog
      open={open}
      onOpenChange={(o) => !o && onCancel()}
      type="delete"
      values={{ quantity: Math.abs(movement.quantity) }}
      summary={
        <>
          Delete <strong>{subject}</strong> ({batteryCount(Math.abs(movement.quantity))}). Its batteries return to their
          original location.{warning && ` ${warning}`}
        </>
      }
      labels={{ quantity: "Total" }}
      pending={pending}
      error={error}
      onConfirm={(_v, key) => onConfirm(key)}
    />
  );
}
