import { zodResolver } from "@hookform/resolvers/zod";
import { ShieldAlertIcon } from "lucide-react";
import * as React from "react";
import { useForm, useWatch } from "react-hook-form";
import { useNavigate } from "react-router";
import { DialogForm } from "@/components/dialog-form";
import { SubmitButton } from "@/components/form-body";
import { InputFormField } from "@/components/form-fields";
import { SelectFormField } from "@/components/select-form-field";
import { TextareaFormField } from "@/components/textarea-form-field";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import {
  RECALL_BYS,
  recallSchema,
  useRecallPacks,
  useRecallPreview,
  useRegistryValues,
  type RecallBy,
  type RecallValues,
} from "@/features/packs/api/recall-packs";
import { packCount, recallPath } from "@/features/packs/components/pack-safety";
import { toast } from "@/hooks/use-toast";
import { newIdempotencyKey } from "@/lib/idempotency";
import { toastError } from "@/lib/toast-error";

const EMPTY: RecallValues = { by: "lot", value: "", reason: "" };

/** useDebounced is value once it has not changed for ms. */
function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = React.useState(value);
  React.useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/**
 * RecallPacksDialog (admins; DESIGN.md §14, issue 37 item 3): choose a lot, model or
 * manufacturer (the registry's values suggested), see how many packs match, where they are and
 * how many are quarantined already, give the reason and confirm: every matching pack is
 * quarantined in one transaction, and the recall's page opens.
 */
export function RecallPacksDialog() {
  const [open, setOpen] = React.useState(false);
  const navigate = useNavigate();
  const recall = useRecallPacks();
  const form = useForm<RecallValues>({ resolver: zodResolver(recallSchema), defaultValues: EMPTY });
  const key = React.useRef(newIdempotencyKey());
  const [by, value] = useWatch({ control: form.control, name: ["by", "value"] });
  const shown = useDebounced(value, 300);
  const preview = useRecallPreview(by as RecallBy, shown);
  const registry = useRegistryValues();
  const listId = React.useId();
  const onOpenChange = (o: boolean) => {
    setOpen(o);
    if (!o) {
      form.reset(EMPTY);
      key.current = newIdempotencyKey();
    }
  };
  const matching = shown.trim() !== "" && preview.data ? preview.data.count : null;
  const onSubmit = form.handleSubmit((values) =>
    recall.mutate(
      { values, idempotencyKey: key.current },
      {
        onSuccess: (res) => {
          toast({ title: res.message });
          onOpenChange(false);
          void navigate(recallPath(res.recall.id));
        },
        onError: (e) => toastError(e, "Could not recall the packs"),
      },
    ),
  );
  const suggestions = registry.data?.[by as RecallBy] ?? [];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <ShieldAlertIcon aria-hidden />
          Recall packs
        </Button>
      </DialogTrigger>
      <DialogContent className="grid-cols-[minmax(0,1fr)]">
        <DialogHeader>
          <DialogTitle>Recall packs</DialogTitle>
          <DialogDescription>Every pack of a lot, model or manufacturer is quarantined at once; its holders see it in their holdings.</DialogDescription>
        </DialogHeader>
        <DialogForm
          form={form}
          onSubmit={onSubmit}
          className="grid min-w-0 gap-4 sm:grid-cols-2"
          footerClassName="sm:col-span-2"
          onCancel={() => onOpenChange(false)}
          submit={
            <SubmitButton variant="destructive" pending={recall.isPending} pendingLabel="Recalling..." disabled={matching === 0}>
              {matching ? `Recall ${packCount(matching)}` : "Recall"}
            </SubmitButton>
          }
        >
          <SelectFormField control={form.control} name="by" label="Recall by" options={RECALL_BYS} />
          <InputFormField control={form.control} name="value" label={RECALL_BYS.find((b) => b.value === by)?.label ?? "Value"} list={listId} autoComplete="off" />
          <datalist id={listId}>
            {suggestions.slice(0, 50).map((v) => (
              <option key={v} value={v} />
            ))}
          </datalist>
          <RecallPreviewBox by={by as RecallBy} value={shown} loading={preview.isFetching} data={shown.trim() ? preview.data : undefined} error={preview.isError} />
          <TextareaFormField control={form.control} name="reason" label="Reason" rows={3} maxLength={2000} placeholder="Supplier notice: cells of this lot may overheat" className="sm:col-span-2" />
        </DialogForm>
      </DialogContent>
    </Dialog>
  );
}

/** RecallPreviewBox says what a recall would take: how many packs, where, how many quarantined already. */
function RecallPreviewBox({
  by,
  value,
  loading,
  data,
  error,
}: {
  by: RecallBy;
  value: string;
  loading: boolean;
  data?: { count: number; alreadyQuarantined: number; places: { place: string; count: number }[] };
  error: boolean;
}) {
  let body: React.ReactNode;
  if (!value.trim()) body = <p className="text-muted-foreground">Choose a {by} to see the packs it matches.</p>;
  else if (error) body = <p className="text-destructive">Could not count the matching packs.</p>;
  else if (!data) body = <p className="text-muted-foreground">Counting…</p>;
  else if (data.count === 0) body = <p>No pack matches.</p>;
  else
    body = (
      <>
        <p className="font-medium">
          {packCount(data.count)} match{data.count === 1 ? "es" : ""}
          {data.alreadyQuarantined > 0 ? ` · ${data.alreadyQuarantined} already quarantined` : ""}
        </p>
        <ul aria-label="Where they are" className="mt-1 space-y-0.5">
          {data.places.map((p) => (
            <li key={p.place} className="flex justify-between gap-3">
              <span className="min-w-0 break-words">{p.place}</span>
              <span className="tabular-nums">{p.count}</span>
            </li>
          ))}
        </ul>
      </>
    );
  return (
    <div role="status" aria-live="polite" aria-busy={loading || undefined} className="rounded-md border bg-muted/40 px-3 py-2 text-sm sm:col-span-2">
      {body}
    </div>
  );
}
