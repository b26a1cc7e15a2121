import * as React from "react";
import { Link, useSearchParams } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { OptionSelect } from "@/components/option-select";
import { ActionBar } from "@/components/layouts/action-bar";
import { PageHeader } from "@/components/layouts/app-shell";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { paths } from "@/config/paths";
import { CodeEntry, PackRow, type PackRowProps } from "@/features/scan";
import {
  type CountedPack,
  PLACES,
  type StocktakeAnswer,
  isPlace,
  placeLabel,
  placeName,
  useApplyStocktake,
  useStocktakePreview,
} from "@/features/stocktake/api/stocktake";
import { useStocktakeDraft } from "@/features/stocktake/hooks/use-stocktake-draft";
import { toast } from "@/hooks/use-toast";
import { ApiError, errorMessage } from "@/lib/api-client";
import { formatRelativeTime } from "@/lib/format";
import { cn } from "@/lib/utils";
import { toastError } from "@/lib/toast-error";

/** MSG_NOT_PACK is the typed entry's refusal of a code that is not a serial or a label. */
export const MSG_NOT_PACK = "Not a pack serial or label";

function packLink(serial: string): string {
  return paths.pack.path.replace(":serial", encodeURIComponent(serial));
}

function packs(n: number): string {
  return n === 1 ? "1 pack" : `${n} packs`;
}

/** confirmText says what Apply will do, in the admin's words. */
export function confirmText(a: StocktakeAnswer): string {
  const parts = [`${placeLabel(a.place)} will count ${a.counts.after} (now ${a.counts.before}).`];
  if (a.counts.missing > 0) parts.push(`${packs(a.counts.missing)} missing will be marked lost.`);
  const moved = a.counts.unexpected - (a.counts.refused ?? 0);
  if (moved > 0) parts.push(`${packs(moved)} unexpected will be moved here.`);
  if (a.counts.wrongPlace > 0) parts.push(`${packs(a.counts.wrongPlace)} out of use will go to quarantine.`);
  return parts.join(" ");
}

/** StocktakePage is /packs/stocktake (admins; DESIGN.md §14, issue 42 item 4). */
export function StocktakePage({ userId }: { userId: string }) {
  const { draft, add, remove, setPlace, applyKey, dropKey, forget } = useStocktakeDraft(userId);
  const preview = useStocktakePreview(draft.place, draft.serials);
  const apply = useApplyStocktake();
  const [confirming, setConfirming] = React.useState<"apply" | "discard" | null>(null);
  const [applied, setApplied] = React.useState<StocktakeAnswer | null>(null);
  const ids = React.useId();
  // a link may open the count on a place (?place=bay: the System page's "Count the bay"); the
  // scans kept so far stay in the list, and the parameter goes so a later choice is not undone
  const [search, setSearch] = useSearchParams();
  const linked = search.get("place");
  React.useEffect(() => {
    if (linked === null) return;
    if (isPlace(linked)) setPlace(linked);
    setSearch(
      (s) => {
        s.delete("place");
        return s;
      },
      { replace: true },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per link followed
  }, [linked]);
  const data = preview.data?.place === draft.place ? preview.data : undefined;
  const counts = data?.counts;

  // the scan field: where focus goes when the last row of a section is removed
  const entry = React.useRef<HTMLDivElement>(null);
  /** removeRow takes serial out of the count and keeps the keyboard's place: the focus moves to
   * the next row's Remove (the previous at the end; the scan field when the section empties)
   * before the row leaves, instead of falling to the page when its button unmounts. */
  function removeRow(serial: string, e: React.MouseEvent<HTMLButtonElement>) {
    const li = e.currentTarget.closest("li");
    const near = [li?.nextElementSibling, li?.previousElementSibling]
      .map((n) => n?.querySelector<HTMLButtonElement>("button[aria-label^='Remove ']"))
      .find((b) => b && !b.disabled);
    (near ?? entry.current?.querySelector<HTMLInputElement>("input"))?.focus();
    remove(serial);
  }

  function typedRefusal(typed: string): string {
    const r = add(typed);
    if (r === "wrong") return MSG_NOT_PACK;
    if (r === "duplicate") return `${typed.trim().toUpperCase()} is already counted`;
    if (r === "full") return "The list is full";
    return "";
  }

  function doApply() {
    apply.mutate(
      { place: draft.place, serials: draft.serials, idempotencyKey: applyKey() },
      {
        onSuccess: (res) => {
          toast({ title: res.message });
          setConfirming(null);
          setApplied(res);
          forget();
        },
        onError: (e) => {
          // a refusal is not kept by the server: the next Apply may send a new list with a new key
          if (e instanceof ApiError && e.status >= 400 && e.status < 500) dropKey();
          setConfirming(null);
          toastError(e, "Could not apply the stocktake");
        },
      },
    );
  }

  const countLine = counts
    ? `${counts.scanned} scanned · ${counts.found} of ${counts.expected} expected found`
    : `${draft.serials.length} scanned`;
  const scanned = (
    <p className="text-sm" aria-live="polite">
      {counts ? `Found ${counts.found} · Missing ${counts.missing} · Unexpected ${counts.unexpected} · Wrong place ${counts.wrongPlace}` : countLine}
    </p>
  );
  const unknown = data?.unknown ?? [];
  const refused = data?.unexpected.filter((p) => p.refusal) ?? [];
  const unexpected = data?.unexpected.filter((p) => !p.refusal) ?? [];
  const canApply = !!data && unknown.length === 0 && refused.length === 0 && !preview.isFetching && !apply.isPending;

  return (
    <>
      <PageHeader title="Stocktake" description="Count a place by scanning every pack there. What is found, missing, unexpected or in the wrong place shows as you scan.">
        <ButtonLink variant="ghost" to={paths.packs.path}>All packs</ButtonLink>
      </PageHeader>
      <div className="space-y-4 pb-24">
        {applied && (
          <div role="status" className="rounded-md border border-emerald-600/40 bg-emerald-50 p-3 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
            <p className="font-medium">{applied.message}</p>
            <p>
              {placeLabel(applied.place)} now counts {applied.counts.after}.
            </p>
          </div>
        )}
        <Card>
          <CardContent className="grid gap-4">
            <div className="grid gap-1.5 sm:max-w-xs">
              <Label htmlFor={`${ids}-place`}>Place</Label>
              <OptionSelect id={`${ids}-place`} value={draft.place} onValueChange={(v) => isPlace(v) && setPlace(v)} options={PLACES} />
            </div>
            <div ref={entry}>
              <CodeEntry
                text="Scan packs"
                label={`Packs at ${placeName(draft.place)}`}
                count={countLine}
                list={scanned}
                onCode={add}
                addLabel="Add to the count"
                onTyped={typedRefusal}
              />
            </div>
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {countLine}
              {preview.isFetching && " · checking…"}
            </p>
          </CardContent>
        </Card>

        <div role="group" aria-label="Stocktake so far" className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          <Tally label="Found" value={counts?.found} tone="ok" />
          <Tally label="Missing" value={counts?.missing} tone={counts?.missing ? "bad" : "none"} />
          <Tally label="Unexpected" value={counts?.unexpected} tone={counts?.unexpected ? "warn" : "none"} />
          <Tally label="Wrong place" value={counts?.wrongPlace} tone={counts?.wrongPlace ? "warn" : "none"} />
        </div>
        {preview.isError && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {errorMessage(preview.error, "Could not compare the scans with the records")}
          </p>
        )}

        {unknown.length > 0 && (
          <PackSection title="Not packs" hint="These codes are no pack's serial: remove them to apply.">
            {unknown.map((s) => (
              <Row key={s} serial={s} detail="Unknown serial" bad onRemove={(e) => removeRow(s, e)} />
            ))}
          </PackSection>
        )}
        {refused.length > 0 && (
          <PackSection title="Cannot be counted here" hint="Apply refuses these packs: remove them from the count, or undo what the message names.">
            {refused.map((p) => (
              <Row key={p.serial} serial={p.serial} link detail={p.refusal?.message ?? ""} bad onRemove={(e) => removeRow(p.serial, e)} />
            ))}
          </PackSection>
        )}
        {data && data.missing.length > 0 && (
          <PackSection title="Missing" hint={`The records have these at ${placeName(draft.place)}, but they have not been scanned. Applied, they are marked lost.`}>
            {data.missing.map((p) => (
              <Row key={p.serial} serial={p.serial} link detail={missingDetail(p)} bad />
            ))}
          </PackSection>
        )}
        {unexpected.length > 0 && (
          <PackSection title="Unexpected" hint="Scanned here, but the records had them elsewhere. Applied, they are moved here.">
            {unexpected.map((p) => (
              <Row key={p.serial} serial={p.serial} link detail={`Records: ${p.from?.label ?? "nowhere"}`} onRemove={(e) => removeRow(p.serial, e)} />
            ))}
          </PackSection>
        )}
        {data && data.wrongPlace.length > 0 && (
          <PackSection title="Wrong place" hint="Out of use: applied, they go to quarantine with their battery.">
            {data.wrongPlace.map((p) => (
              <Row key={p.serial} serial={p.serial} link detail={`${p.state.replace(/_/g, " ")} · records: ${p.from?.label ?? "nowhere"}`} onRemove={(e) => removeRow(p.serial, e)} />
            ))}
          </PackSection>
        )}
        {data && data.found.length > 0 && (
          <PackSection title="Found" hint="Where the records have them.">
            {data.found.map((p) => (
              <Row key={p.serial} serial={p.serial} detail={p.from?.label ?? ""} onRemove={(e) => removeRow(p.serial, e)} />
            ))}
          </PackSection>
        )}
      </div>

      <ActionBar>
        <Button variant="outline" disabled={draft.serials.length === 0 || apply.isPending} onClick={() => setConfirming("discard")}>
          Discard
        </Button>
        <Button disabled={!canApply} onClick={() => setConfirming("apply")}>
          Apply
        </Button>
      </ActionBar>

      <AlertDialog open={confirming !== null} onOpenChange={(o) => !o && !apply.isPending && setConfirming(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{confirming === "discard" ? "Discard this stocktake?" : `Apply the stocktake of ${placeName(draft.place)}?`}</AlertDialogTitle>
            <AlertDialogDescription>
              {confirming === "discard"
                ? `The ${packs(draft.serials.length)} scanned are forgotten; nothing changes.`
                : data
                  ? confirmText(data)
                  : ""}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={apply.isPending}>Cancel</AlertDialogCancel>
            {confirming === "discard" ? (
              <Button
                variant="destructive"
                onClick={() => {
                  forget();
                  setConfirming(null);
                }}
              >
                Discard
              </Button>
            ) : (
              <Button disabled={!canApply} onClick={doApply}>
                {apply.isPending && <Spinner label="Applying" />}
                Apply
              </Button>
            )}
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

function missingDetail(p: CountedPack): string {
  const parts: string[] = [];
  if (p.lastHolder) parts.push(`Last with ${p.lastHolder.name}`);
  if (p.lastSeenAt) parts.push(`seen ${formatRelativeTime(p.lastSeenAt).toLowerCase()}`);
  return parts.join(" · ") || "Never seen";
}

function Tally({ label, value, tone }: { label: string; value: number | undefined; tone: "ok" | "bad" | "warn" | "none" }) {
  const id = React.useId();
  return (
    <div
      className={cn(
        "rounded-md border p-3",
        tone === "bad" && "border-destructive/50 bg-destructive/10",
        tone === "warn" && "border-amber-500/50 bg-amber-50 dark:bg-amber-950",
      )}
    >
      <p id={id} className="text-xs text-muted-foreground">
        {label}
      </p>
      <p aria-labelledby={id} className={cn("text-2xl font-bold tabular-nums", tone === "bad" && "text-destructive")}>
        {value ?? "–"}
      </p>
    </div>
  );
}

/** SHOWN is how many rows a section lists before "Show all" (a shelf's missing packs before the first scans). */
const SHOWN = 20;

function PackSection({ title, hint, children }: { title: string; hint: string; children: React.ReactNode }) {
  const rows = React.Children.toArray(children);
  const [all, setAll] = React.useState(false);
  const shown = all ? rows : rows.slice(0, SHOWN);
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardTitle>
          {title} ({rows.length})
        </CardTitle>
        <p className="text-sm text-muted-foreground">{hint}</p>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        <ul aria-label={title} className="flex flex-col divide-y rounded-md border">
          {shown}
        </ul>
        {rows.length > shown.length && (
          <Button type="button" variant="ghost" size="sm" className="self-start" onClick={() => setAll(true)}>
            Show all {rows.length}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}

function Row({ serial, detail, bad, link, onRemove }: { serial: string; detail: string; bad?: boolean; link?: boolean; onRemove?: PackRowProps["onRemove"] }) {
  const title = link ? (
    <Link to={packLink(serial)} className="underline-offset-4 hover:underline">
      {serial}
    </Link>
  ) : undefined;
  return <PackRow serial={serial} title={title} detail={detail || undefined} problem={bad} onRemove={onRemove} />;
}
