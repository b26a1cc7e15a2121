import { BatteryIcon } from "lucide-react";
import * as React from "react";
import { Card, CardContent } from "@/components/ui/card";
import type { AppState } from "@/lib/state";
import { useDeadBatteryStats } from "@/features/dashboard/api/get-dead-battery-stats";
import { BATTERY_VIEWS, type BatteryView, VIEW_CAPTIONS, nextView } from "@/features/dashboard/utils/cycle";

/** possession sums the batteries userId holds (all assignment types). */
export function possession(state: AppState | undefined, userId: string): number {
  return (state?.activeBatteryHolders ?? []).filter((h) => h.user?.id === userId).reduce((sum, h) => sum + h.quantity, 0);
}

/**
 * DriverStatsCard is the driver's personal batteries card: a tap cycles the batteries in
 * their possession, then the dead batteries they dropped off today, this week and last week.
 */
export function DriverStatsCard({ state, userId, pending = 0 }: { state?: AppState; userId: string; pending?: number }) {
  const [view, setView] = React.useState<BatteryView>("possession");
  const dead = useDeadBatteryStats();
  // pending: what the driver's queued pickups and dropoffs change, shown at once (DESIGN.md §12)
  const value = view === "possession" ? Math.max(0, possession(state, userId) + pending) : dead.data?.[view];
  const label = view === "possession" ? "Your Batteries" : "Dead Batteries Dropped";
  return (
    <Card className="py-0">
      <CardContent className="p-0">
        <button
          type="button"
          onClick={() => setView((v) => nextView(BATTERY_VIEWS, v))}
          className="flex w-full items-center gap-4 rounded-xl p-4 text-left outline-none hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <span className="flex size-12 items-center justify-center rounded-full bg-emerald-100 text-emerald-700">
            <BatteryIcon aria-hidden className="size-6" />
          </span>
          <span className="flex-1">
            <span className="block text-sm font-medium text-muted-foreground">{label}</span>
            <span className="block text-3xl font-bold tabular-nums">{value ?? "–"}</span>
            <span className="block text-xs text-muted-foreground">{VIEW_CAPTIONS[view]} · tap to cycle</span>
            {view === "possession" && pending !== 0 && (
              <span className="block text-xs font-medium text-amber-800">Includes actions waiting to send</span>
            )}
          </span>
        </button>
      </CardContent>
    </Card>
  );
}
