import { PencilIcon, Trash2Icon } from "lucide-react";
import * as React from "react";
import { ConfirmActionDialog } from "@/components/confirm-action-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import type { FeedMovement } from "@/features/activity/api/get-recent-activity";
import { useDeleteMovement } from "@/features/activity/api/delete-movement";
import { useUpdateMovement } from "@/features/activity/api/update-movement";
import {
  INVALID_MOVEMENT_INPUT,
  type MovementCorrection,
  type MovementDraft,
  correctionFrom,
  initialDraft,
  isEditableType,
  usesTotal,
} from "@/features/activity/utils/movement-edit";
import { movementSummary, personName } from "@/features/activity/utils/movement-summary";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { movementNotes, formatActivityDateTime, movementTypeLabel } from "@/lib/format-ops";

type Step = { kind: "options" } | { kind: "edit" } | { kind: "confirmEdit"; correction: MovementCorrection } | { kind: "confirmDelete" };

/**
 * MovementOptionsDialog is opened from an activity entry by admin roles (spec part 1 §2):
 * a readable summary, Edit/Correct (pickup, dropoff, swap halves, adjustment) and Delete,
 * both through the Confirm Action dialog. movement null means closed.
 */
export function MovementOptionsDialog({ movement, onClose }: { movement: FeedMovement | null; onClose: () => void }) {
  const [step, setStep] = React.useState<Step>({ kind: "options" });
  const [draft, setDraft] = React.useState<MovementDraft>({ good: "", dead: "", total: "", notes: "" });
  const [invalid, setInvalid] = React.useState(false);
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
  const subject = `${movementTypeLabel(movement.type)} by ${personName(movement)}, ${formatActivityDateTime(movement.createdAt)}`;
  const close = () => {
    setStep({ kind: "options" });
    onClose();
  };

  const startEdit = () => {
    setDraft(initialDraft(movement, note));
    setInvalid(false);
    setStep({ kind: "edit" });
  };
  const submitEdit = () => {
    const correction = correctionFrom(movement.type, draft);
    setInvalid(!correction);
    if (!correction) {
      toast({ ...INVALID_MOVEMENT_INPUT, variant: "destructive" });
      return;
    }
    update.reset();
    setStep({ kind: "confirmEdit", correction });
  };

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
              <span className="text-muted-foreground">{formatActivityDateTime(movement.createdAt)}</span>
            </p>
            {note && <p className="break-words">“{note}”</p>}
          </div>

          {step.kind === "edit" ? (
            <form
              id={`${ids}-edit`}
              className="grid gap-3"
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                submitEdit();
              }}
            >
              {total ? (
                <div className="grid gap-1.5">
                  <Label htmlFor={`${ids}-total`}>Total</Label>
                  <Input
                    id={`${ids}-total`}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    value={draft.total}
                    onChange={(e) => setDraft((d) => ({ ...d, total: e.target.value }))}
                  />
                </div>
              ) : (
                <div className="grid grid-cols-2 gap-3">
                  <div className="grid gap-1.5">
                    <Label htmlFor={`${ids}-good`}>Good</Label>
                    <Input
                      id={`${ids}-good`}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      value={draft.good}
                      onChange={(e) => setDraft((d) => ({ ...d, good: e.target.value }))}
                    />
                  </div>
                  <div className="grid gap-1.5">
                    <Label htmlFor={`${ids}-dead`}>Dead</Label>
                    <Input
                      id={`${ids}-dead`}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      value={draft.dead}
                      onChange={(e) => setDraft((d) => ({ ...d, dead: e.target.value }))}
                    />
                  </div>
                </div>
              )}
              {/* the toast sits outside the modal, hidden from assistive tech while it is open: say it here too */}
              {invalid && (
                <p role="alert" className="text-sm text-destructive">
                  {INVALID_MOVEMENT_INPUT.description}
                </p>
              )}
              <div className="grid gap-1.5">
                <Label htmlFor={`${ids}-notes`}>Notes (optional)</Label>
                <Textarea
                  id={`${ids}-notes`}
                  rows={2}
                  maxLength={2000}
                  value={draft.notes}
                  onChange={(e) => setDraft((d) => ({ ...d, notes: e.target.value }))}
                />
              </div>
            </form>
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
        details={{ subject, notes: step.kind === "confirmEdit" ? step.correction.notes : undefined }}
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

/** DeleteMovementConfirm is the Confirm Action dialog of type delete for one movement. */
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
  movement: Pick<FeedMovement, "quantity">;
  subject: string;
  pending: boolean;
  error?: string | null;
  onCancel: () => void;
  onConfirm: (idempotencyKey: string) => void;
}) {
  return (
    <ConfirmActionDialog
      open={open}
      onOpenChange={(o) => !o && onCancel()}
      type="delete"
      values={{ quantity: Math.abs(movement.quantity) }}
      details={{ subject }}
      pending={pending}
      error={error}
      onConfirm={(_v, key) => onConfirm(key)}
    />
  );
}
