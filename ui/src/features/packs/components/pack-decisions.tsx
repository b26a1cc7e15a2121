import { zodResolver } from "@hookform/resolvers/zod";
import * as React from "react";
import { useForm } from "react-hook-form";
import { DialogForm } from "@/components/dialog-form";
import { SubmitButton } from "@/components/form-body";
import { TextareaFormField } from "@/components/textarea-form-field";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { PackState } from "@/features/packs/api/get-packs";
import { stateSchema, useSetPackState, type StateValues } from "@/features/packs/api/set-pack-state";
import { toast } from "@/hooks/use-toast";
import { newIdempotencyKey } from "@/lib/idempotency";
import { toastError } from "@/lib/toast-error";

/** Decision is one state change an admin makes with one button. */
export type Decision = { to: PackState; label: string; hint: string; destructive?: boolean };

const BACK: Decision = { to: "in_service", label: "Back in service", hint: "Checked and safe: it may be handed out again." };
const RETIRE: Decision = { to: "retired", label: "Retire", hint: "Out of the fleet for good.", destructive: true };
const LOST: Decision = { to: "lost", label: "Declare lost", hint: "Nobody can find it. A scan of its label finds it again.", destructive: true };

/**
 * DECISIONS are the buttons a pack's state offers (DESIGN.md §14; the server's table decides):
 * a quarantined pack (a damage report, a recall) goes to maintenance, back in service or is
 * retired; a pack in service or in maintenance may be declared lost.
 */
export const DECISIONS: Partial<Record<PackState, Decision[]>> = {
  quarantined: [{ to: "maintenance", label: "Send to maintenance", hint: "To be checked or repaired before it goes out again." }, BACK, RETIRE],
  maintenance: [BACK, RETIRE, LOST],
  in_service: [LOST],
};

/** decisionsFor are the buttons for a pack in state (none for a retired, recycled or lost pack). */
export function decisionsFor(state: string): Decision[] {
  return DECISIONS[state as PackState] ?? [];
}

/**
 * PackDecisions is the admin's card on a pack's page: one button per decision the pack's state
 * allows, each asking for the reason the history keeps (PUT /api/admin/packs/{serial}/state).
 */
export function PackDecisions({ serial, state }: { serial: string; state: string }) {
  const [chosen, setChosen] = React.useState<Decision | null>(null);
  const decisions = decisionsFor(state);
  if (decisions.length === 0) return null;
  const quarantined = state === "quarantined";
  return (
    <Card role="region" aria-labelledby="pack-decisions-title" className={quarantined ? "border-destructive/50" : undefined}>
      <CardHeader>
        <CardTitle id="pack-decisions-title">
          <h2>{quarantined ? "Decide about this pack" : "Actions"}</h2>
        </CardTitle>
        {quarantined && <CardDescription>It stays out of service until you decide. It still counts where it lies.</CardDescription>}
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        {decisions.map((d) => (
          <Button key={d.to} variant={d.destructive ? "outline" : "default"} onClick={() => setChosen(d)}>
            {d.label}
          </Button>
        ))}
      </CardContent>
      <DecisionDialog serial={serial} decision={chosen} onClose={() => setChosen(null)} />
    </Card>
  );
}

/** DecisionDialog asks for the reason of one decision and sends it. */
export function DecisionDialog({ serial, decision, onClose }: { serial: string; decision: Decision | null; onClose: () => void }) {
  const save = useSetPackState(serial);
  const form = useForm<StateValues>({ resolver: zodResolver(stateSchema), defaultValues: { state: decision?.to ?? "in_service", reason: "" } });
  const key = React.useRef(newIdempotencyKey());
  React.useEffect(() => {
    if (decision) form.reset({ state: decision.to, reason: "" });
    key.current = newIdempotencyKey();
  }, [decision, form]);
  // mutateAsync, not mutate's callbacks: the change can unmount the caller (a pack declared lost
  // leaves the Missing list, a retired pack has no decisions left) and the toast must still show
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const res = await save.mutateAsync({ values, idempotencyKey: key.current });
      toast({ title: res.message });
      onClose();
    } catch (e) {
      toastError(e, "Could not change the state");
    }
  });
  return (
    <Dialog open={decision !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="grid-cols-[minmax(0,1fr)]">
        <DialogHeader>
          <DialogTitle>
            {decision?.label}: <span className="font-mono">{serial}</span>
          </DialogTitle>
          <DialogDescription>{decision?.hint}</DialogDescription>
        </DialogHeader>
        <DialogForm
          form={form}
          onSubmit={(e) => void onSubmit(e)}
          className="grid gap-4"
          onCancel={onClose}
          submit={
            <SubmitButton variant={decision?.destructive ? "destructive" : "default"} pending={save.isPending} pendingLabel="Saving...">
              {decision?.label}
            </SubmitButton>
          }
        >
          <TextareaFormField control={form.control} name="reason" label="Reason" rows={3} maxLength={2000} />
        </DialogForm>
      </DialogContent>
    </Dialog>
  );
}
