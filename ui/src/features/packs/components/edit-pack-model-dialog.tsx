import { zodResolver } from "@hookform/resolvers/zod";
import * as React from "react";
import { useForm } from "react-hook-form";
import { DialogForm } from "@/components/dialog-form";
import { SubmitButton } from "@/components/form-body";
import { InputFormField } from "@/components/form-fields";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import type { PackModel } from "@/features/packs/api/get-pack-models";
import { modelFormValues, packModelSchema, useUpdatePackModel, type PackModelValues } from "@/features/packs/api/update-pack-model";
import { toast } from "@/hooks/use-toast";
import { newIdempotencyKey } from "@/lib/idempotency";
import { toastError } from "@/lib/toast-error";

/**
 * EditPackModelDialog sets a model's nominal Wh, rated Ah and end-of-life threshold (admins;
 * DESIGN.md §16): the server derives its packs' health again with them, in the same write.
 */
export function EditPackModelDialog({ model }: { model: PackModel }) {
  const [open, setOpen] = React.useState(false);
  const save = useUpdatePackModel();
  const form = useForm<PackModelValues>({ resolver: zodResolver(packModelSchema), defaultValues: modelFormValues(model) });
  const key = React.useRef(newIdempotencyKey());
  const onOpenChange = (o: boolean) => {
    setOpen(o);
    if (o) form.reset(modelFormValues(model));
    key.current = newIdempotencyKey();
  };
  const onSubmit = form.handleSubmit((values) =>
    save.mutate(
      { model: model.model, values, idempotencyKey: key.current },
      {
        onSuccess: (res) => {
          toast({ title: res.message || `Model ${model.model} saved` });
          onOpenChange(false);
        },
        onError: (e) => {
          key.current = newIdempotencyKey();
          toastError(e, "Could not save the model");
        },
      },
    ),
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Edit ${model.model}`}>
          Edit
        </Button>
      </DialogTrigger>
      <DialogContent className="grid-cols-[minmax(0,1fr)]">
        <DialogHeader>
          <DialogTitle>Model {model.model}</DialogTitle>
          <DialogDescription>
            Its packs&apos; full cycles count against the nominal energy; a pack under the threshold is worn. Saving derives their health again.
          </DialogDescription>
        </DialogHeader>
        <DialogForm
          form={form}
          onSubmit={onSubmit}
          className="grid gap-4"
          onCancel={() => onOpenChange(false)}
          submit={
            <SubmitButton pending={save.isPending} pendingLabel="Saving...">
              Save
            </SubmitButton>
          }
        >
          <InputFormField control={form.control} name="nominalWh" label="Nominal Wh" inputMode="decimal" autoComplete="off" description="Empty when not known" />
          <InputFormField control={form.control} name="ratedAh" label="Rated Ah" inputMode="decimal" autoComplete="off" description="Empty when not known" />
          <InputFormField
            control={form.control}
            name="threshold"
            label="End-of-life threshold (%)"
            inputMode="numeric"
            autoComplete="off"
            description="State of health under which a pack is worn (default 80)"
          />
        </DialogForm>
      </DialogContent>
    </Dialog>
  );
}
