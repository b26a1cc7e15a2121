import { PageHeader } from "@/components/layouts/app-shell";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useChargingSessions } from "@/features/charging/api/get-charging-sessions";
import { NextReadyCard } from "@/features/charging/components/charging-eta-list";
import { ChargingSessionsTable } from "@/features/charging/components/charging-sessions-table";
import { StartChargingForm } from "@/features/charging/components/start-charging-form";
import { useInventory } from "@/lib/inventory";
import { useUser } from "@/lib/auth";

/** AdminChargingRoute is /admin-charging: start a session, the sessions table, the next ETAs and the pool counts. */
export function AdminChargingRoute() {
  const { data: user } = useUser();
  const inventory = useInventory();
  const sessions = useChargingSessions("admin");
  if (!user) return null;
  const counts = [
    { label: "Waiting", value: inventory.data?.waiting, hint: "dead, to charge" },
    { label: "Charging", value: inventory.data?.charging, hint: "on chargers" },
    { label: "Ready", value: inventory.data?.ready, hint: "charged" },
  ];
  return (
    <>
      <PageHeader title="Charging" description="Start charging sessions and follow them until they are done." />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="grid grid-cols-1 content-start gap-6 lg:col-span-2">
          <StartChargingForm waiting={inventory.data?.waiting} />
          <ChargingSessionsTable role={user.role} />
        </div>
        <div className="grid grid-cols-1 content-start gap-6">
          <Card role="region" aria-labelledby="pool-counts-title">
            <CardHeader>
              <CardTitle id="pool-counts-title">Bay Counts</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid grid-cols-3 gap-3">
                {counts.map((c) => (
                  <div key={c.label} className="rounded-lg border p-3 text-center">
                    <dt className="text-xs text-muted-foreground">{c.label}</dt>
                    <dd className="text-2xl font-bold tabular-nums">{c.value ?? "–"}</dd>
                    <dd className="text-[11px] text-muted-foreground">{c.hint}</dd>
                  </div>
                ))}
              </dl>
            </CardContent>
          </Card>
          <NextReadyCard sessions={sessions.data ?? []} titleId="next-ready-title" />
        </div>
      </div>
    </>
  );
}
