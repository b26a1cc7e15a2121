import { QueryStatus } from "@/components/query-status";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useInventory } from "@/lib/inventory";

const FIGURES = [
  { key: "total", label: "Total Batteries" },
  { key: "ready", label: "Ready" },
  { key: "waiting", label: "Waiting" },
  { key: "charging", label: "Charging" },
  { key: "inField", label: "In Field" },
] as const;

/** InventoryStatsPanel shows the five battery figures from GET /api/inventory, refreshed every 60 s. */
export function InventoryStatsPanel() {
  const inventory = useInventory();
  const stats = inventory.data?.stats;
  const unaccounted = stats?.unaccounted;
  return (
    <Card role="region" aria-labelledby="inventory-stats-title">
      <CardHeader>
        <CardTitle id="inventory-stats-title">Current Inventory</CardTitle>
        <CardDescription>Live counts from the ledger, refreshed every 60 seconds.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryStatus query={inventory} skeletonClassName="h-20 w-full" error="Failed to load data. Please try again." />
        {stats && (
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
            {FIGURES.map((f) => (
              <div key={f.key} className="rounded-lg border p-3">
                <dt className="text-xs text-muted-foreground">{f.label}</dt>
                <dd className="text-2xl font-bold tabular-nums">{stats[f.key]}</dd>
              </div>
            ))}
          </dl>
        )}
        {unaccounted !== undefined && unaccounted !== 0 && (
          <p className="mt-3 text-sm text-amber-800">
            {unaccounted} batteries are unaccounted for between the total and the pools.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
