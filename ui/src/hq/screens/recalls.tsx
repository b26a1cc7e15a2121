import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { CheckCircle2Icon, PlusIcon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { InputFormField } from "@/components/form-fields";
import { QueryStatus } from "@/components/query-status";
import { SelectFormField } from "@/components/select-form-field";
import { TextareaFormField } from "@/components/textarea-form-field";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Form } from "@/components/ui/form";
import { toast } from "@/hooks/use-toast";
import { formatDateTime } from "@/lib/format";
import { newIdempotencyKey } from "@/lib/idempotency";
import { type RecallPreview, fetchRecallPreview, isHqAdmin, recallsQueryOptions, useMe, useStartRecall } from "@/hq/api";
import { RECALL_BY_LABEL, clause, formatCount } from "@/hq/format";
import { recallPath } from "@/hq/paths";
import { RECALL_BY_OPTIONS, type RecallValues, recallSchema } from "@/hq/recall-form";
import { HqPageHeader } from "@/hq/shell";
import { toastError } from "@/lib/toast-error";

/** RecallsScreen lists head office's recalls, newest first; an hq_admin starts a new one. */
export function RecallsScreen() {
  const me = useMe();
  const admin = isHqAdmin(me.data);
  const recalls = useQuery({ ...recallsQueryOptions, meta: { silentError: true } });
  const [open, setOpen] = React.useState(false);
  return (
    <>
      <HqPageHeader title="Recalls" description="Recalls sent to every city, and how far each city has quarantined the packs">
        {admin && (
          <Button onClick={() => setOpen(true)}>
            <PlusIcon aria-hidden />
            New recall
          </Button>
        )}
      </HqPageHeader>
      <QueryStatus
        query={recalls}
        skeletonClassName="h-32 w-full"
        error="Failed to load the recalls"
        alert
        empty={recalls.data && recalls.data.length === 0 && "No recall yet."}
      />
      <ul className="grid gap-3">
        {recalls.data?.map((r) => {
          const matching = r.cities.reduce((t, c) => t + c.matching, 0);
          const quarantined = r.cities.reduce((t, c) => t + c.quarantined, 0);
          return (
            <li key={r.id}>
              <Card className="py-4">
                <CardContent className="grid gap-1 px-4 text-sm">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h2 className="text-base font-semibold">
                      <Link to={recallPath(r.id)} className="text-primary underline-offset-4 hover:underline">
                        {RECALL_BY_LABEL[r.by] ?? r.by} {r.value}
                      </Link>
                    </h2>
                    <span className={r.done ? "inline-flex items-center gap-1 font-medium text-primary" : "font-medium text-amber-700 dark:text-amber-400"}>
                      {r.done && <CheckCircle2Icon aria-hidden className="size-4" />}
                      {r.done ? "Done" : "In progress"}
                    </span>
                  </div>
                  <p className="text-muted-foreground">
                    {formatDateTime(r.at)} by {r.actor.name || "head office"} · {r.cities.length} {r.cities.length === 1 ? "city" : "cities"} ·{" "}
                    {formatCount(quarantined)} of {formatCount(matching)} packs quarantined
                  </p>
                  <p className="break-words">{r.reason}</p>
                </CardContent>
              </Card>
            </li>
          );
        })}
      </ul>
      {open && <NewRecallDialog onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * NewRecallDialog: what to recall (a lot, a model or a manufacturer) and why; Preview counts
 * the matching packs in every city's copy, then Recall sends it to every city (keyed: a retry
 * never recalls twice) and opens its page.
 */
function NewRecallDialog({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const start = useStartRecall();
  const form = useForm<RecallValues>({ resolver: zodResolver(recallSchema), defaultValues: { by: "lot", value: "", reason: "" } });
  const [preview, setPreview] = React.useState<{ values: RecallValues; answer: RecallPreview } | null>(null);
  const [previewing, setPreviewing] = React.useState(false);
  const [key, setKey] = React.useState(newIdempotencyKey);
  // a change to what is recalled asks for a new preview (and a new key: it is another recall)
  React.useEffect(() => {
    const sub = form.watch(() => setPreview(null));
    return () => sub.unsubscribe();
  }, [form]);
  const onPreview = form.handleSubmit(async (values) => {
    setPreviewing(true);
    try {
      const answer = await fetchRecallPreview(values.by, values.value);
      setPreview({ values, answer });
      setKey(newIdempotencyKey());
    } catch (e) {
      toastError(e, "Failed to count the matching packs");
    } finally {
      setPreviewing(false);
    }
  });
  const onRecall = () => {
    if (!preview) return;
    start.mutate(
      { input: preview.values, idempotencyKey: key },
      {
        onSuccess: (res) => {
          toast({ title: "Recall sent", description: "Every city is asked to quarantine its matching packs." });
          onClose();
          if (res?.recall) navigate(recallPath(res.recall.id));
        },
        onError: (e) => toastError(e, "Failed to start the recall"),
      },
    );
  };
  const p = preview?.answer;
  return (
    <Dialog open onOpenChange={(o) => !o && !start.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New recall</DialogTitle>
          <DialogDescription>Every city quarantines its packs of this lot, model or manufacturer.</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={onPreview} noValidate className="grid gap-4">
            <fieldset disabled={start.isPending || previewing} className="contents">
              <SelectFormField control={form.control} name="by" label="Recall by" options={RECALL_BY_OPTIONS} />
              <InputFormField control={form.control} name="value" label="Value" autoComplete="off" spellCheck={false} />
              <TextareaFormField control={form.control} name="reason" label="Reason" rows={3} />
            </fieldset>
            {!p && (
              <DialogFooter>
                <Button type="button" variant="outline" onClick={onClose}>
                  Cancel
                </Button>
                <Button type="submit" disabled={previewing}>
                  {previewing ? "Counting..." : "Preview"}
                </Button>
              </DialogFooter>
            )}
          </form>
        </Form>
        {p && preview && (
          <section aria-label="Preview" aria-live="polite" className="grid gap-3 text-sm">
            <p className="font-medium">
              {p.total === 0
                ? `Nothing to recall: no pack in any city is left to quarantine${p.alreadyQuarantined > 0 ? ` (${formatCount(p.alreadyQuarantined)} already quarantined)` : ""}.`
                : `${formatCount(p.total)} ${p.total === 1 ? "pack" : "packs"} to quarantine in all cities${p.alreadyQuarantined > 0 ? `, ${formatCount(p.alreadyQuarantined)} already quarantined` : ""}.`}
            </p>
            <ul className="grid gap-1">
              {p.cities.map((c) => (
                <li key={c.id} className="flex justify-between gap-4 border-b pb-1 last:border-0">
                  <span>{c.name}</span>
                  <span className={c.ok ? "tabular-nums" : "text-destructive"}>
                    {c.ok ? `${formatCount(c.count)} to quarantine${c.alreadyQuarantined ? `, ${formatCount(c.alreadyQuarantined)} already quarantined` : ""}` : `Not counted: ${clause(c.error, "its copy is not available")}`}
                  </span>
                </li>
              ))}
            </ul>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setPreview(null)} disabled={start.isPending}>
                Back
              </Button>
              <Button type="button" variant="destructive" onClick={onRecall} disabled={start.isPending || p.total === 0}>
                {start.isPending ? "Sending..." : p.total > 0 ? `Recall ${formatCount(p.total)} ${p.total === 1 ? "pack" : "packs"}` : "Recall"}
              </Button>
            </DialogFooter>
          </section>
        )}
      </DialogContent>
    </Dialog>
  );
}
