import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import type { LiaisonMovement } from "@/features/liaison/api/get-liaison-state";
import { formatDateTime, formatRelativeTime } from "@/lib/format";

/**
 * RecentDropoffs is the liaison's Drop-offs tab: the latest dropoff movements from the
 * state (the liaison's copy carries no notes): who, when, and 'Dropped off N batteries'.
 */
export function RecentDropoffs({ movements, loading }: { movements: readonly LiaisonMovement[] | undefined; loading: boolean }) {
  const dropoffs = (movements ?? []).filter((m) => m.type === "dropoff");
  return (
    <Card role="region" aria-labelledby="dropoffs-title">
      <CardHeader>
        <CardTitle id="dropoffs-title">Recent Drop-offs</CardTitle>
        <CardDescription>Batteries drivers brought back to the warehouse.</CardDescription>
      </CardHeader>
      <CardContent>
        {loading && <Skeleton className="h-20 w-full" />}
        {!loading && dropoffs.length === 0 && <p className="text-sm text-muted-foreground">No recent drop-offs</p>}
        {dropoffs.length > 0 && (
          <ul aria-label="Drop-offs" className="grid gap-2">
            {dropoffs.map((m) => (
              <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3 text-sm">
                <div>
                  <p className="font-medium">{m.user ? `${m.user.firstName} ${m.user.lastName}`.trim() : "Unknown"}</p>
                  <p className="text-muted-foreground">
                    Dropped off {Math.abs(m.quantity)} {Math.abs(m.quantity) === 1 ? "battery" : "batteries"}
                  </p>
                </div>
                <time dateTime={m.createdAt} title={formatDateTime(m.createdAt)} className="text-xs text-muted-foreground">
                  {formatRelativeTime(m.createdAt)}
                </time>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
