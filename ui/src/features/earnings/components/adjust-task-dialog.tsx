import { zodResolver } from "@hookform/resolvers/zod";
import * as React from "react";
import { useForm } from "react-hook-form";
import * as z from "zod/mini";
import { DialogFormFooter } from "@/components/dialog-form";
import { FormBody } from "@/components/form-body";
import { InputFormField } from "@/components/form-fields";
import { TextareaFormField } from "@/components/textarea-form-field";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { type EarningsRow, type TaskType, useAdjustTask } from "@/features/earnings/api/earnings";
import { count } from "@/lib/count";

/** TASK_LABELS name the counts an adjustment replaces. */
export const TASK_LABELS: Record<TaskType, string> = { batteries: "Dead Batteries", moves: "Moves", recovers: "Recovers" };

const schema = z.object({
  adjustedCount: count({ message: "Please enter a valid number" }),
  adjustmentReason: z.string().check(z.trim(), z.maxLength(500, "The reason can be at most 500 characters")),
});

/** AdjustTarget is the count being adjusted (null: closed). */
export type AdjustTarget = { row: EarningsRow; taskType: TaskType } | null;

/**
 * AdjustTaskDialog replaces one of a user's weekly counts (spec part 2 §2): the ledger's count
 * is shown, the adjusted count (a whole number 0 or more, 'Please enter a valid number') and a
 * reason are recorded with who and when.
 */
export function AdjustTaskDialog({ target, weekStart, onClose }: { target: AdjustTarget; weekStart: string; onClose: () => void }) {
  const adjust = useAdjustTask();
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { adjustedCount: "", adjustmentReason: "" },
  });
  const counted = target ? countedOf(target.row, target.taskType) : 0;
  const current = target ? currentOf(target.row, target.taskType) : 0;
  React.useEffect(() => {
    if (target) form.reset({ adjustedCount: String(current), adjustmentReason: target.row.adjustments[target.taskType]?.adjustmentReason ?? "" });
  }, [target, current, form]);
  const onSubmit = form.handleSubmit((v) => {
    if (!target) return;
    adjust.mutate(
      { userId: target.row.userId, weekStart, taskType: target.taskType, originalCount: counted, ...v },
      { onSuccess: onClose },
    );
  });
  return (
    <Dialog open={target !== null} onOpenChange={(o) => !o && !adjust.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Adjust {target ? TASK_LABELS[target.taskType] : ""}</DialogTitle>
          <DialogDescription>
            {target ? `${target.row.firstName} ${target.row.lastName}, week of ${weekStart}. ` : ""}
            The ledger counted {counted}; the adjusted count replaces it for this week's pay.
          </DialogDescription>
        </DialogHeader>
        <FormBody form={form} id="adjust-task-form" onSubmit={onSubmit} className="grid gap-3">
          <InputFormField control={form.control} name="adjustedCount" label="Adjusted Count" type="number" inputMode="numeric" min={0} step={1} />
          <TextareaFormField control={form.control} name="adjustmentReason" label="Reason" rows={2} maxLength={500} />
        </FormBody>
        <DialogFormFooter formId="adjust-task-form" pending={adjust.isPending} onCancel={onClose}>
          Save Adjustment
        </DialogFormFooter>
      </DialogContent>
    </Dialog>
  );
}

function countedOf(r: EarningsRow, t: TaskType): number {
  return t === "batteries" ? r.counted.deadBatteries : t === "moves" ? r.counted.moves : r.counted.recovers;
}

function currentOf(r: EarningsRow, t: TaskType): number {
  return t === "batteries" ? r.deadBatteries : t === "moves" ? r.moves : r.recovers;
}
