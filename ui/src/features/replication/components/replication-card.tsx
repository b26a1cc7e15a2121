import { AlertTriangleIcon } from "lucide-react";
import * as React from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { lagText, useReplication } from "@/features/replication/api/replication";
import { useUser } from "@/lib/auth";

/**
 * ReplicationCard is the Continuous Replication block of /admin-system for a master admin
 * (DESIGN.md §13): on or off, the target (no credentials), the lag and the last sync, and a
 * warning when the lag passes 60 s or uploads fail. Other roles do not see it.
 */
export function ReplicationCard() {
  const user = useUser();
  const master = user.data?.role === "master_admin";
  const status = useReplication(master);
  const ids = React.useId();
  if (!master) return null;
  const s = status.data;
  return (
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader>
        <CardTitle id={`${ids}-title`}>Continuous Replication</CardTitle>
        <CardDescription>
          Every change to the database is copied off this machine within seconds, so a lost disk loses at most the last few seconds.
          It is turned on with <code>swapbay serve --replicate=URL</code> or <code>SWAPBAY_REPLICA_URL</code>; see README, &quot;Running in
          production&quot;.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm" aria-live="polite">
        {status.isPending ? (
          <p>Loading...</p>
        ) : status.isError || !s ? (
          <p className="text-destructive">Failed to load the replication status</p>
        ) : !s.enabled ? (
          <p>
            <span className="font-medium">Off.</span> Only the scheduled backups leave this machine.
          </p>
        ) : (
          <>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
              <dt className="text-muted-foreground">Status</dt>
              <dd className="font-medium">On</dd>
              <dt className="text-muted-foreground">Target</dt>
              <dd className="break-all font-mono text-xs">{s.target}</dd>
              <dt className="text-muted-foreground">Lag</dt>
              <dd>{lagText(s.lagSeconds)}</dd>
              <dt className="text-muted-foreground">Last sync</dt>
              <dd>{s.lastSync ? new Date(s.lastSync).toLocaleString() : "Not yet"}</dd>
            </dl>
            {s.warning && (
              <p role="alert" className="flex items-start gap-2 rounded-md border border-destructive/50 bg-destructive/10 p-3 text-destructive">
                <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
                <span>{s.warning}</span>
              </p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
