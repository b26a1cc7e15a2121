import { ChevronDownIcon, Trash2Icon, UsersIcon } from "lucide-react";
import * as React from "react";
import { Lazy, loadable } from "@/lib/loadable";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useDriverWeekActivities } from "@/features/activity/api/get-driver-week-activities";
import { type DriverActivity, type DriverWeek, useAdminWeeklyActivity } from "@/lib/weekly-activity";
import { useDeleteMovement } from "@/features/activity/api/delete-movement";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { formatDate, formatDateTime } from "@/lib/format";
import { movementNotes, movementTypeLabel } from "@/lib/format-ops";
import { cn } from "@/lib/utils";
import { displayName, isAdminRole } from "@/lib/user";


// fetched when an admin first deletes a movement from the week view (issue 14)
const deleteMovementConfirm = loadable(() =>
  import("@/features/activity/components/movement-options-dialog").then((m) => m.DeleteMovementConfirm),
);

/**
 * WeeklyDriverActivity lists the drivers active this week (Monday–Sunday) as expandable
 * cards: name, Driver/Admin badge, activity count, dead-battery and rebalance totals; the
 * expanded Activity Log shows each movement with a delete button when canDelete (admin
 * roles). Polls every 60 s.
 */
export function WeeklyDriverActivity({ canDelete = false }: { canDelete?: boolean }) {
  const { data, isLoading, isError } = useAdminWeeklyActivity(0, { silent: true });
  const [toDelete, setToDelete] = React.useState<{ activity: DriverActivity; driver: DriverWeek } | null>(null);
  const remove = useDeleteMovement();
  const drivers = data?.driverBreakdown ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <UsersIcon aria-hidden className="size-5 text-muted-foreground" />
          Weekly Driver Activity
        </CardTitle>
        {data && (
          <CardDescription>
            {formatDate(data.weekStart)} – {formatDate(data.weekEnd)}
          </CardDescription>
        )}
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <p className="py-6 text-center text-sm text-muted-foreground">Loading driver activity...</p>
        ) : isError ? (
          <p className="py-6 text-center text-sm text-destructive">Unable to load driver activity</p>
        ) : drivers.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No driver activity this week</p>
        ) : (
          <ul className="space-y-2">
            {drivers.map((d) => (
              <li key={d.user.id}>
                <DriverCard driver={d} canDelete={canDelete} onDelete={(activity) => {
                    remove.reset();
                    setToDelete({ activity, driver: d });
                  }} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      {toDelete && (
        <Lazy
          of={deleteMovementConfirm}
          open
          movement={toDelete.activity}
          subject={`${movementTypeLabel(toDelete.activity.type)} by ${displayName(toDelete.driver.user)}, ${formatDateTime(toDelete.activity.createdAt)}`}
          pending={remove.isPending}
          error={remove.error ? errorMessage(remove.error, "Failed to delete movement") : null}
          onCancel={() => setToDelete(null)}
          onConfirm={(idempotencyKey) =>
            remove.mutate(
              { id: toDelete.activity.id, idempotencyKey },
              {
                onSuccess: () => {
                  toast({ title: "Movement Deleted", description: "The movement has been deleted and batteries returned." });
                  setToDelete(null);
                },
                onError: (err) =>
                  toast({ title: "Delete Failed", description: errorMessage(err, "Failed to delete movement"), variant: "destructive" }),
              },
            )
          }
        />
      )}
    </Card>
  );
}

function DriverCard({ driver: d, canDelete, onDelete }: { driver: DriverWeek; canDelete: boolean; onDelete: (a: DriverActivity) => void }) {
  const [open, setOpen] = React.useState(false);
  const panelId = React.useId();
  const name = displayName(d.user);
  return (
    <div className="rounded-lg border">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full flex-wrap items-center gap-x-3 gap-y-1 rounded-lg p-3 text-left outline-none hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        <span className="min-w-0 font-medium break-words">{name}</span>
        <Badge variant={isAdminRole(d.user.role) ? "default" : "secondary"}>{isAdminRole(d.user.role) ? "Admin" : "Driver"}</Badge>
        <span className="ml-auto flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
          <span>{d.totalActivities} {d.totalActivities === 1 ? "activity" : "activities"}</span>
          <span>{d.deadBatteriesTotal} dead</span>
          <span>{d.rebalanceTotal} moves</span>
          <ChevronDownIcon aria-hidden className={cn("size-4 transition-transform", open && "rotate-180")} />
        </span>
      </button>
      {open && (
        <div id={panelId} className="border-t p-3">
          <h3 className="mb-2 text-sm font-semibold">Activity Log</h3>
          <ActivityLog driver={d} name={name} canDelete={canDelete} onDelete={onDelete} />
        </div>
      )}
    </div>
  );
}

/** ActivityLog is an expanded card's list: asked for when the card opens, not with the week. */
function ActivityLog({
  driver: d,
  name,
  canDelete,
  onDelete,
}: {
  driver: DriverWeek;
  name: string;
  canDelete: boolean;
  onDelete: (a: DriverActivity) => void;
}) {
  const { data: activities, isError } = useDriverWeekActivities(d.user.id);
  // a poll that fails keeps the list it has
  if (!activities) {
    return isError ? (
      <p className="text-sm text-destructive">Unable to load driver activity</p>
    ) : (
      <p className="text-sm text-muted-foreground">Loading driver activity...</p>
    );
  }
  if (activities.length === 0) return <p className="text-sm text-muted-foreground">No activity</p>;
  return (
    <div tabIndex={0} className="max-h-96 overflow-y-auto rounded-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
      <ul aria-label={`Activity log of ${name}`} className="divide-y">
        {activities.map((a) => {
          const note = movementNotes({ ...a, user: d.user });
          return (
            <li key={a.id} className="flex items-start gap-2 py-2 text-sm">
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge variant="outline">{movementTypeLabel(a.type)}</Badge>
                  <span className="font-semibold tabular-nums">{Math.abs(a.quantity)}</span>
                  <time dateTime={a.createdAt} className="text-xs text-muted-foreground">
                    {formatDateTime(a.createdAt)}
                  </time>
                </div>
                {note && <p className="mt-0.5 text-xs break-words text-muted-foreground">{note}</p>}
              </div>
              {canDelete && (
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-8 text-destructive"
                  aria-label={`Delete ${movementTypeLabel(a.type)} of ${Math.abs(a.quantity)}, ${formatDateTime(a.createdAt)}`}
                  onClick={() => onDelete(a)}
                >
                  <Trash2Icon />
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
