import { Trash2Icon, UsersIcon } from "lucide-react";
import * as React from "react";
import { ConfirmActionDialog } from "@/components/confirm-action-dialog";
import { QueryStatus } from "@/components/query-status";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useDeleteAssignment } from "@/features/custody/api/delete-assignment";
import { type HolderGroup, useBatteryHolders } from "@/features/custody/api/get-battery-holders";
import { holderName } from "@/features/custody/utils/swap-validation";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { assignmentTypeLabel } from "@/lib/format-ops";
import { isLiaisonRole, roleLabel } from "@/lib/user";
import { batteryCount, formatDateTime } from "@/lib/format";
import { toastError } from "@/lib/toast-error";

/**
 * BatteryHoldersCard is the All Battery Holders card: per holder the name, a badge per
 * assignment type with its count, and the total. The delete-assignments button (every
 * holding of the user goes to waiting, after a confirmation) is hidden for the liaison.
 */
export function BatteryHoldersCard({ role }: { role: string }) {
  const holders = useBatteryHolders();
  const remove = useDeleteAssignment();
  const [target, setTarget] = React.useState<HolderGroup | null>(null);
  const canDelete = !isLiaisonRole(role);
  const ids = React.useId();
  const total = (holders.data ?? []).reduce((n, h) => n + h.total, 0);

  const onConfirm = (_values: unknown, idempotencyKey: string) => {
    if (!target) return;
    remove.mutate(
      { id: target.user.id, idempotencyKey },
      {
        onSuccess: () => {
          toast({ title: "Assignment deleted - batteries moved to waiting" });
          setTarget(null);
        },
        onError: (err) =>
          toastError(err, "Failed to delete assignment"),
      },
    );
  };

  return (
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader>
        <CardTitle id={`${ids}-title`} className="flex items-center gap-2">
          <UsersIcon aria-hidden className="size-5 text-primary" />
          All Battery Holders
        </CardTitle>
        <CardDescription>
          {holders.data ? `${holders.data.length} holders, ${total} batteries out of the bay.` : "Who holds batteries right now."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <QueryStatus query={holders} skeletonClassName="h-24 w-full" error="Error loading battery holders" empty={holders.data?.length === 0 && "No one is holding batteries"} />
        {holders.data && holders.data.length > 0 && (
          <ul aria-label="Battery holders" className="grid gap-3">
            {holders.data.map((h) => (
              <li key={h.user.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3">
                <div className="min-w-0 space-y-1.5">
                  <p className="font-medium">
                    {holderName(h.user)}{" "}
                    {h.user.role && <span className="text-xs font-normal text-muted-foreground">({roleLabel(h.user.role)})</span>}
                  </p>
                  <div className="flex flex-wrap gap-1.5">
                    {h.assignments.map((a) => (
                      <Badge key={a.id} variant="outline" title={`Since ${formatDateTime(a.date)}`}>
                        {assignmentTypeLabel(a.assignmentType)} {a.quantity}
                      </Badge>
                    ))}
                  </div>
                </div>
                <div className="flex items-center gap-3">
                  <p className="text-right">
                    <span className="block text-2xl font-bold tabular-nums">{h.total}</span>
                    <span className="text-xs text-muted-foreground">total</span>
                  </p>
                  {canDelete && (
                    <Button
                      variant="outline"
                      size="sm"
                      className="text-destructive hover:text-destructive"
                      aria-label={`Delete assignments of ${holderName(h.user)}`}
                      onClick={() => {
                        remove.reset();
                        setTarget(h);
                      }}
                    >
                      <Trash2Icon aria-hidden /> Delete
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      {canDelete && (
        <ConfirmActionDialog
          open={target !== null}
          onOpenChange={(open) => !open && setTarget(null)}
          type="delete"
          title="Delete Assignments"
          values={{ quantity: target?.total ?? 0 }}
          summary={
            target ? (
              <>
                Delete <strong>every assignment of {holderName(target.user)}</strong> ({batteryCount(target.total)}). The
                batteries move to Waiting.
              </>
            ) : null
          }
          labels={{ quantity: "Total" }}
          pending={remove.isPending}
          error={remove.isError ? errorMessage(remove.error, "Failed to delete assignment") : null}
          onConfirm={onConfirm}
        />
      )}
    </Card>
  );
}
