import { RefreshCwIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { recalculatedSummary, useRecalculateInventory } from "@/features/inventory/api/recalculate-inventory";
import { toast } from "@/hooks/use-toast";
import { newIdempotencyKey } from "@/lib/idempotency";

/**
 * RecalculateInventoryCard rebuilds the counts from movement history (POST
 * /api/admin/recalculate-inventory) and toasts 'Inventory Recalculated' with the counts and
 * any corrections, or 'Failed to recalculate inventory'.
 */
export function RecalculateInventoryCard() {
  const recalc = useRecalculateInventory();
  const run = () =>
    recalc.mutate(
      { idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: (res) => toast({ title: "Inventory Recalculated", description: recalculatedSummary(res ?? {}) }),
        onError: () => toast({ title: "Error", description: "Failed to recalculate inventory", variant: "destructive" }),
      },
    );
  return (
    <Card role="region" aria-labelledby="recalculate-title">
      <CardHeader>
        <CardTitle id="recalculate-title">Recalculate Inventory From Movements</CardTitle>
        <CardDescription>Rebuilds every count from the movement history and reports any corrections.</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="outline" onClick={run} disabled={recalc.isPending}>
          <RefreshCwIcon aria-hidden className={recalc.isPending ? "animate-spin" : undefined} />
          {recalc.isPending ? "Recalculating..." : "Recalculate Inventory"}
        </Button>
      </CardContent>
    </Card>
  );
}
