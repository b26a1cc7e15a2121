import { CheckIcon, PencilIcon, Trash2Icon } from "lucide-react";
import * as React from "react";
import { Lazy, loadable } from "@/lib/loadable";
import type { ConfirmValues } from "@/components/confirm-action-dialog";
import { LazyConfirmActionDialog } from "@/components/lazy-confirm-action-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { ScrollTable } from "@/components/ui/scroll-table";
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { energyOf, MSG_ENERGY_WH, useCompleteChargingSession } from "@/features/charging/api/complete-charging-session";
import { useDeleteChargingSession } from "@/features/charging/api/delete-charging-session";
import { type ChargingSession, useChargingSessions } from "@/features/charging/api/get-charging-sessions";
import { useNow } from "@/hooks/use-now";
import {
  chargerBadgeClass,
  earliestEtaFirst,
  isOverdue,
  quantityChangeSummary,
  sessionStatus,
} from "@/features/charging/utils/session-status";
import { PackScanField } from "@/features/scan/index";
import { PackListSlot } from "@/components/pack-list-slot";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { batteryCount, formatDateTime, formatTime } from "@/lib/format";
import { cn } from "@/lib/utils";
import { isAdminRole } from "@/lib/user";
import { packsBody, usePackLists, usePackTracking } from "@/lib/packs";


// fetched when an admin first edits a session's quantity (issue 14)
const editChargingQuantityDialog = loadable(() =>
  import("@/features/charging/components/edit-charging-quantity-dialog").then((m) => m.EditChargingQuantityDialog),
);

/** ChargingSessionsTableProps: the viewer's role picks the data and the controls. */
export type ChargingSessionsTableProps = {
  /**
   * role of the signed-in user. Admin roles read /api/admin/charging-sessions and get the
   * Action column (edit quantity, Mark Done, delete); the liaison reads
   * /api/liaison/charging-sessions, read-only. Drivers use ChargingEtaList instead.
   */
  role: string;
  /** simplified shows only the session with the earliest ETA, titled 'Next Charging Session'. */
  simplified?: boolean;
  /** readOnly drops the Action column and reads the liaison's list even for an admin (the liaison screen). */
  readOnly?: boolean;
  className?: string;
};

type PendingAction = { kind: "complete" | "delete"; session: ChargingSession };

const COMPLETE_LISTS = ["packs"] as const;

/**
 * ChargingSessionsTable is the Charging Sessions table (spec part 1 §2): Started, Charger,
 * Qty, ETA, Status and, for admin roles, Action. Polls every 60 s.
 */
export function ChargingSessionsTable({ role, simplified = false, readOnly = false, className }: ChargingSessionsTableProps) {
  const canManage = isAdminRole(role) && !readOnly;
  const sessions = useChargingSessions(canManage ? "admin" : "liaison");
  const now = useNow(15_000);
  const [editing, setEditing] = React.useState<ChargingSession | null>(null);
  const [pending, setPending] = React.useState<PendingAction | null>(null);
  const complete = useCompleteChargingSession();
  const remove = useDeleteChargingSession();
  // Mark Done may name the packs coming off the charger (DESIGN.md §14): none named, the
  // packs the records put on the session go to Ready with it
  const tracking = usePackTracking();
  const packs = usePackLists(COMPLETE_LISTS);
  const offCharger = packs.lists.packs;
  // the energy the charger reported for the session, when the admin has it (optional)
  const [energy, setEnergy] = React.useState("");
  const [energyError, setEnergyError] = React.useState("");
  const energyId = React.useId();

  const rows = earliestEtaFirst(sessions.data ?? []);
  const shown = simplified ? rows.slice(0, 1) : rows;
  const title = simplified ? "Next Charging Session" : "Active Charging Sessions";
  const titleId = React.useId();

  const failed = pending?.kind === "complete" ? complete : remove;
  const dialogError = packs.refusal
    ? null
    : failed.isError
    ? errorMessage(failed.error, pending?.kind === "complete" ? "Failed to complete charging session" : "Failed to delete charging session")
    : null;
  const ask = (action: PendingAction) => {
    complete.reset();
    remove.reset();
    packs.clear(); // each Mark Done starts with an empty list
    setEnergy("");
    setEnergyError("");
    setPending(action);
  };

  const onConfirm = (_values: ConfirmValues, idempotencyKey: string) => {
    if (!pending) return;
    const { kind, session } = pending;
    const mutation = kind === "complete" ? complete : remove;
    const named = kind === "complete" && offCharger.length > 0;
    if (named && !packs.check(tracking, { packs: session.quantity })) return;
    const energyWh = kind === "complete" ? energyOf(energy) : undefined;
    if (energyWh !== undefined && Number.isNaN(energyWh)) {
      setEnergyError(MSG_ENERGY_WH);
      return;
    }
    mutation.mutate(
      { id: session.id, idempotencyKey, ...(kind === "complete" ? { ...packsBody(tracking, packs.lists), energyWh } : {}) },
      {
        onSuccess: () => {
          toast({
            title: kind === "complete" ? "Charging session completed successfully" : "Charging session deleted successfully",
          });
          setPending(null);
          if (kind === "complete") packs.clear();
        },
        onError: (err) => {
          // a refused pack stays in the dialog's list, its row saying why
          if (kind === "complete") packs.refuse(err);
          toast({
            title: kind === "complete" ? "Failed to complete charging session" : "Failed to delete charging session",
            description: errorMessage(err, ""),
            variant: "destructive",
          });
        },
      },
    );
  };

  return (
    <Card role="region" aria-labelledby={titleId} className={className}>
      <CardHeader>
        <CardTitle id={titleId}>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {sessions.isPending && <Skeleton className="h-20 w-full" />}
        {sessions.isError && <p className="text-sm text-destructive">Failed to load charging sessions</p>}
        {sessions.isSuccess && shown.length === 0 && (
          <p className="text-sm text-muted-foreground">No active charging sessions</p>
        )}
        {shown.length > 0 && (
          <ScrollTable label="Charging sessions table">
            <TableHeader>
              <TableRow>
                <TableHead>Started</TableHead>
                <TableHead>Charger</TableHead>
                <TableHead className="text-right">Qty</TableHead>
                <TableHead>ETA</TableHead>
                <TableHead>Status</TableHead>
                {canManage && <TableHead className="text-right">Action</TableHead>}
              </TableRow>
            </TableHeader>
            <TableBody>
              {shown.map((s) => {
                const status = sessionStatus(s.etaAt, now);
                const overdue = isOverdue(s.etaAt, now);
                const label = `${s.chargerType} session of ${s.quantity}`;
                return (
                  <TableRow key={s.id}>
                    <TableCell className="whitespace-nowrap">{formatDateTime(s.startedAt)}</TableCell>
                    <TableCell>
                      <Badge className={chargerBadgeClass(s.chargerType)}>{s.chargerType}</Badge>
                    </TableCell>
                    <TableCell className="text-right font-semibold tabular-nums">{s.quantity}</TableCell>
                    <TableCell className={cn("whitespace-nowrap", overdue && "font-medium text-red-700")}>
                      {formatTime(s.etaAt)}
                      {overdue && " (Overdue)"}
                    </TableCell>
                    <TableCell>
                      <Badge variant={status === "Due" ? "warning" : "secondary"}>{status}</Badge>
                    </TableCell>
                    {canManage && (
                      <TableCell className="text-right">
                        <div className="flex justify-end gap-1">
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={`Edit quantity of ${label}`}
                            title="Edit quantity"
                            onClick={() => setEditing(s)}
                          >
                            <PencilIcon />
                          </Button>
                          <Button variant="outline" size="sm" onClick={() => ask({ kind: "complete", session: s })}>
                            <CheckIcon aria-hidden /> Mark Done
                          </Button>
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={`Delete ${label}`}
                            title="Delete"
                            className="text-destructive hover:text-destructive"
                            onClick={() => ask({ kind: "delete", session: s })}
                          >
                            <Trash2Icon />
                          </Button>
                        </div>
                      </TableCell>
                    )}
                  </TableRow>
                );
              })}
            </TableBody>
          </ScrollTable>
        )}
      </CardContent>
      {canManage && (
        <>
          {editing && (
            <Lazy of={editChargingQuantityDialog} session={editing} onOpenChange={(open) => !open && setEditing(null)} />
          )}
          <LazyConfirmActionDialog
            open={pending !== null}
            onOpenChange={(open) => !open && setPending(null)}
            {...(pending?.kind === "complete"
              ? {
                  // Mark Done empties the session into Ready: shown as a change to 0 with Ready as the destination.
                  type: "charging_edit" as const,
                  title: "Mark Charging Session Done",
                  summary: quantityChangeSummary(pending.session.quantity, 0, "ready"),
                  values: { quantity: 0 },
                  labels: { quantity: "New Quantity" },
                  children: (
                    <div className="grid gap-3">
                      {tracking !== "off" && (
                        <PackListSlot error={packs.listError("packs")}>
                          <PackScanField
                            id={`charging.complete.${pending.session.id}`}
                            label="Packs off the charger"
                            purpose="any"
                            expected={pending.session.quantity}
                            disabled={complete.isPending}
                            {...packs.field("packs")}
                          />
                        </PackListSlot>
                      )}
                      <div className="grid gap-1.5">
                        <Label htmlFor={energyId}>Energy delivered (Wh, optional)</Label>
                        <Input
                          id={energyId}
                          inputMode="decimal"
                          autoComplete="off"
                          value={energy}
                          disabled={complete.isPending}
                          aria-invalid={energyError !== ""}
                          aria-describedby={`${energyId}-hint${energyError ? ` ${energyId}-error` : ""}`}
                          onChange={(e) => {
                            setEnergy(e.target.value);
                            if (energyError) setEnergyError("");
                          }}
                        />
                        <p id={`${energyId}-hint`} className="text-xs text-muted-foreground">
                          What the charger reported for this session, if it shows it: the packs&apos; energy throughput and cycles.
                        </p>
                        {energyError && (
                          <p id={`${energyId}-error`} role="alert" className="text-sm text-destructive">
                            {energyError}
                          </p>
                        )}
                      </div>
                    </div>
                  ),
                }
              : {
                  type: "delete" as const,
                  title: "Delete Charging Session",
                  summary: pending && (
                    <>
                      Delete{" "}
                      <strong>
                        the {pending.session.chargerType} charging session started {formatDateTime(pending.session.startedAt)}
                      </strong>{" "}
                      ({batteryCount(pending.session.quantity)}). Its batteries return to their original location.
                    </>
                  ),
                  values: { quantity: pending?.session.quantity ?? 0 },
                  labels: { quantity: "Total" },
                })}
            allowEdit={false}
            pending={complete.isPending || remove.isPending}
            error={dialogError}
            onConfirm={onConfirm}
          />
        </>
      )}
    </Card>
  );
}
