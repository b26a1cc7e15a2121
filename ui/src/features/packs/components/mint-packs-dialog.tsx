import { zodResolver } from "@hookform/resolvers/zod";
import * as React from "react";
import { useForm } from "react-hook-form";
import { DialogForm } from "@/components/dialog-form";
import { SubmitButton } from "@/components/form-body";
import { InputFormField } from "@/components/form-fields";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { mintSchema, useMintPacks, type MintAnswer, type MintValues } from "@/features/packs/api/mint-packs";
import { toast } from "@/hooks/use-toast";
import { newIdempotencyKey } from "@/lib/idempotency";
import { toastError } from "@/lib/toast-error";

const EMPTY: MintValues = { count: "24", model: "", chemistry: "", nominalWh: "", manufacturer: "", lot: "", manufactured: "" };

/**
 * MintPacksDialog registers N new packs (1–1,000) under fresh serials with the specs they
 * share, then offers their label sheet (DESIGN.md §14).
 */
export function MintPacksDialog() {
  const [open, setOpen] = React.useState(false);
  const [done, setDone] = React.useState<MintAnswer | null>(null);
  const mint = useMintPacks();
  const form = useForm<MintValues>({ resolver: zodResolver(mintSchema), defaultValues: EMPTY });
  const key = React.useRef(newIdempotencyKey());
  const onOpenChange = (o: boolean) => {
    setOpen(o);
    if (!o) {
      setDone(null);
      form.reset(EMPTY);
      key.current = newIdempotencyKey();
    }
  };
  const onSubmit = form.handleSubmit((values) =>
    mint.mutate(
      { values, idempotencyKey: key.current },
      {
        onSuccess: (res) => {
          setDone(res);
          key.current = newIdempotencyKey();
          toast({ title: res.message });
        },
        onError: (e) => toastError(e, "Could not register the packs"),
      },
    ),
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>Mint packs</Button>
      </DialogTrigger>
      <DialogContent className="grid-cols-[minmax(0,1fr)]">
        <DialogHeader>
          <DialogTitle>Mint packs</DialogTitle>
          <DialogDescription>New serials for packs that share these specs; print their labels next.</DialogDescription>
        </DialogHeader>
        {done ? (
          <div className="space-y-4">
            <p role="status">{done.message}</p>
            <DialogFooter>
              <Button asChild>
                <a href={done.labelsUrl} download>
                  Download labels
                </a>
              </Button>
              <Button variant="outline" onClick={() => onOpenChange(false)}>
                Done
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <DialogForm
            form={form}
            onSubmit={onSubmit}
            className="grid gap-4 sm:grid-cols-2"
            footerClassName="sm:col-span-2"
            submit={
              <SubmitButton pending={mint.isPending} pendingLabel="Minting...">
                Mint
              </SubmitButton>
            }
          >
            <InputFormField control={form.control} name="count" label="Number of packs" inputMode="numeric" />
            <InputFormField control={form.control} name="model" label="Model" autoComplete="off" />
            <InputFormField control={form.control} name="chemistry" label="Chemistry" placeholder="NMC" autoComplete="off" />
            <InputFormField control={form.control} name="nominalWh" label="Nominal Wh" inputMode="decimal" />
            <InputFormField control={form.control} name="manufacturer" label="Manufacturer" autoComplete="off" />
            <InputFormField control={form.control} name="lot" label="Lot" autoComplete="off" />
            <InputFormField control={form.control} name="manufactured" label="Month of manufacture" placeholder="YYYY-MM" autoComplete="off" />
          </DialogForm>
        )}
      </DialogContent>
    </Dialog>
  );
}
