import { zodResolver } from "@hookform/resolvers/zod";
import * as React from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { FormBody, SubmitRow } from "@/components/form-body";
import { SelectFormField } from "@/components/select-form-field";
import { TextareaFormField } from "@/components/textarea-form-field";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { paths } from "@/config/paths";
import { eventRecallId, usePack, type PackEvent } from "@/features/packs/api/get-pack";
import { PACK_STATES, type MovementRef, type PackPlace } from "@/features/packs/api/get-packs";
import { packStateLabel } from "@/lib/pack-state";
import { stateSchema, useSetPackState, type StateValues } from "@/features/packs/api/set-pack-state";
import { FactList } from "@/features/packs/components/fact-list";
import { PackDecisions } from "@/features/packs/components/pack-decisions";
import { PackHealthCard } from "@/features/packs/components/pack-health-card";
import { BringBackNotice, EventPhotos } from "@/features/packs/components/pack-safety";
import { WornBadge } from "@/features/packs/components/pack-health-format";
import { PackStateBadge } from "@/components/pack-state-badge";
import { ReportDamageButton } from "@/features/packs/components/report-damage-button";
import { toast } from "@/hooks/use-toast";
import { formatDate, formatDateTime } from "@/lib/format";
import { newIdempotencyKey } from "@/lib/idempotency";
import { toastError } from "@/lib/toast-error";

const MOVEMENT_LABELS: Record<string, string> = {
  pickup: "pickup",
  dropoff: "dropoff",
  charge_start: "charging start",
  charge_complete: "charging complete",
  driver_swap_in: "swap",
  driver_swap_out: "swap",
  internal_transfer: "transfer",
  adjustment: "adjustment",
  stocktake: "stocktake",
  transfer_out: "sent to another city",
  transfer_in: "received from another city",
};

/** KIND_LABELS name a movement by its kind where its type alone would mislead (an admin's assignment is recorded as a pickup). */
const KIND_LABELS: Record<string, string> = {
  manual_assignment: "assignment",
};

/** movementLabel is how a movement reads in a pack's last seen and history: "assignment", "dropoff". */
export function movementLabel(m: MovementRef): string {
  return (m.kind && KIND_LABELS[m.kind]) || MOVEMENT_LABELS[m.type] || m.type;
}

function place(p: PackPlace | null): string {
  return p?.label ?? "unknown";
}

/** eventText is one history line in words. */
export function eventText(e: PackEvent): string {
  switch (e.kind) {
    case "created":
      return "Registered (minted)";
    case "imported":
      return "Registered (imported)";
    case "moved":
      // a pack never placed before (first seen) came from nowhere the records knew
      return e.from ? `Moved from ${place(e.from)} to ${place(e.to)}` : `Moved to ${place(e.to)}`;
    case "discrepancy":
      return `Scanned at ${place(e.to)}; the records had it at ${place(e.expected)}`;
    case "state":
      return `State: ${packStateLabel(e.fromState ?? "")} → ${packStateLabel(e.toState ?? "")}`;
    case "found":
      return `Found: ${packStateLabel(e.fromState ?? "lost")} → ${packStateLabel(e.toState ?? "")}`;
    case "charged":
      return "Charged";
    case "damage":
      return "Damage reported";
    case "transferred":
      return "Sent to another city: in transit";
    case "received":
      return `Received from another city to ${place(e.to)}`;
  }
  return e.kind;
}

/** incidentReportUrl is the incident PDF of a damage report (the passport's accident document; admins). */
export function incidentReportUrl(serial: string, eventId: string): string {
  return `/api/admin/packs/${encodeURIComponent(serial)}/incidents/${encodeURIComponent(eventId)}/report`;
}

/** PackPage is /packs/<serial>: where the pack is, when and by whom it was last seen, its specs and its whole history. */
export function PackPage({ serial, admin }: { serial: string; admin: boolean }) {
  const { data: pack, isPending, isError } = usePack(serial);
  if (isPending) return <Skeleton className="h-64 w-full" />;
  if (isError || !pack)
    return (
      <div className="space-y-3">
        <h1 className="text-2xl font-bold tracking-tight">Pack {serial}</h1>
        <p role="alert">This pack was not found, or it is not one you hold.</p>
        <Link to={paths.packs.path} className="underline">
          Back to packs
        </Link>
      </div>
    );
  const facts: [string, React.ReactNode][] = [
    ["Location", pack.location?.label ?? "Unknown"],
    [
      "Last seen",
      pack.lastSeen
        ? `${formatDateTime(pack.lastSeen.at)}${pack.lastSeen.by ? ` by ${pack.lastSeen.by.name}` : ""}${pack.lastSeen.movement ? ` (${movementLabel(pack.lastSeen.movement)})` : ""}`
        : "Never scanned",
    ],
    ["Charge count", pack.chargeCount],
    ["Model", pack.model || "—"],
    ["Chemistry", pack.chemistry || "—"],
    ["Nominal energy", pack.nominalWh ? `${pack.nominalWh} Wh` : "—"],
    ["Manufacturer", pack.manufacturer || "—"],
    ["Lot", pack.lot || "—"],
    ["Manufactured", pack.manufactured || "—"],
    ["In service since", pack.inServiceSince ? formatDate(pack.inServiceSince) : "—"],
  ];
  return (
    <div className="space-y-6">
      <Link to={paths.packs.path} className="text-sm text-muted-foreground underline-offset-4 hover:underline">
        ← All packs
      </Link>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="font-mono text-2xl font-bold tracking-tight">{pack.serial}</h1>
        <PackStateBadge state={pack.state} />
        {pack.missing && <span className="text-sm font-medium text-destructive">Missing</span>}
        {pack.worn && <WornBadge />}
        <div className="flex flex-wrap gap-2 sm:ml-auto">
          {pack.state !== "recycled" && <ReportDamageButton serial={pack.serial} label="Report damage" />}
          {admin && (
            <Button asChild variant="outline">
              <a href={`/api/admin/packs/labels?serials=${encodeURIComponent(pack.serial)}`} download>
                Download label
              </a>
            </Button>
          )}
        </div>
      </div>
      <BringBackNotice pack={pack} admin={admin} />
      <Card>
        <CardContent>
          <FactList facts={facts} />
        </CardContent>
      </Card>
      <PackHealthCard serial={pack.serial} />
      {admin && <PackDecisions serial={pack.serial} state={pack.state} />}
      {admin && <PackStateForm serial={pack.serial} current={pack.state} />}
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>History</h2>
          </CardTitle>
        </CardHeader>
        <CardContent>
          {pack.history.length === 0 ? (
            <p className="text-muted-foreground">Nothing recorded yet.</p>
          ) : (
            <ol aria-label="History" className="space-y-3">
              {pack.history.map((e) => (
                <li key={e.id} className="border-l-2 pl-3" data-kind={e.kind}>
                  <p className={e.kind === "discrepancy" ? "font-medium text-destructive" : "font-medium"}>{eventText(e)}</p>
                  <p className="text-sm text-muted-foreground">
                    {formatDateTime(e.at)}
                    {e.actor ? ` · ${e.actor.name}` : ""}
                    {e.movement ? ` · ${movementLabel(e.movement)}` : ""}
                  </p>
                  {e.reason && <p className="text-sm break-words">{e.reason}</p>}
                  <EventPhotos event={e} recallId={admin ? eventRecallId(e) : ""} />
                  {admin && e.kind === "damage" && (
                    <a href={incidentReportUrl(pack.serial, e.id)} download className="text-sm font-medium underline underline-offset-4">
                      Report (PDF)
                    </a>
                  )}
                </li>
              ))}
            </ol>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** PackStateForm changes the pack's state with a reason (admins; the server enforces the allowed changes). */
function PackStateForm({ serial, current }: { serial: string; current: string }) {
  const save = useSetPackState(serial);
  const form = useForm<StateValues>({ resolver: zodResolver(stateSchema), defaultValues: { state: current as StateValues["state"], reason: "" } });
  const onSubmit = form.handleSubmit((values) =>
    save.mutate(
      { values, idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: (res) => {
          toast({ title: res.message });
          form.reset({ state: values.state, reason: "" });
        },
        onError: (e) => toastError(e, "Could not change the state"),
      },
    ),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Change state</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <FormBody form={form} onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" footer={<SubmitRow pending={save.isPending}>Change state</SubmitRow>}>
          <SelectFormField control={form.control} name="state" label="State" options={PACK_STATES.filter((s) => s !== "in_transit").map((s) => ({ value: s, label: packStateLabel(s) }))} />
          <TextareaFormField control={form.control} name="reason" label="Reason" className="sm:col-span-2" />
        </FormBody>
      </CardContent>
    </Card>
  );
}
