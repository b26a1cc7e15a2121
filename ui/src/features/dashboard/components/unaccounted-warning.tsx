import { TriangleAlertIcon } from "lucide-react";
import { Link } from "react-router";
import type { BatteryStats } from "@/lib/state";

/**
 * UnaccountedWarning tells admins when total differs from ready + waiting + charging +
 * in field (DESIGN §3: 'unaccounted', shown when not 0). Renders nothing otherwise.
 * emergencyPath links to the page with the override and the recalculation.
 */
export function UnaccountedWarning({ stats, emergencyPath }: { stats?: BatteryStats; emergencyPath: string }) {
  const n = stats?.unaccounted;
  if (!n) return null;
  const what = n > 0 ? `${n} ${n === 1 ? "battery is" : "batteries are"} unaccounted for` : `${-n} more ${n === -1 ? "battery is" : "batteries are"} counted than the fleet total`;
  return (
    <div role="alert" className="flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
      <TriangleAlertIcon aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-600" />
      <div className="text-sm">
        <p className="font-semibold">Unaccounted batteries: {what}.</p>
        <p>
          Total Batteries ({stats.total}) should equal Ready + Waiting + Charging + In Field (
          {stats.ready + stats.waiting + stats.charging + stats.inField}). Correct a stat, or use{" "}
          <Link to={emergencyPath} className="font-medium underline underline-offset-2">
            Emergency Inventory
          </Link>{" "}
          to override or recalculate.
        </p>
      </div>
    </div>
  );
}
