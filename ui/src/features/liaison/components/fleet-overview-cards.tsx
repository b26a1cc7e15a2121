import { BatteryChargingIcon, BatteryFullIcon, BatteryLowIcon, BoxesIcon, ShieldAlertIcon } from "lucide-react";
import type * as React from "react";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import type { LiaisonStats } from "@/features/liaison/api/get-liaison-state";

type CardDef = {
  key: keyof LiaisonStats;
  label: string;
  /** desktopLabel replaces label on wide screens (spec part 1 §2: the liaison's desktop labels). */
  desktopLabel?: string;
  icon: React.ComponentType<{ className?: string; "aria-hidden"?: boolean }>;
  tone: string;
};

const CARDS: CardDef[] = [
  { key: "total", label: "Total Fleet Size", desktopLabel: "Battery Total", icon: BoxesIcon, tone: "text-slate-700" },
  { key: "ready", label: "Ready for Deployment", desktopLabel: "Warehouse Ready", icon: BatteryFullIcon, tone: "text-emerald-700" },
  { key: "waiting", label: "Awaiting Charging", icon: BatteryLowIcon, tone: "text-amber-700" },
  { key: "charging", label: "Charging", desktopLabel: "Warehouse Charging", icon: BatteryChargingIcon, tone: "text-sky-700" },
];

/** QUARANTINED is the card of batteries on the quarantine shelf, shown when there are any. */
const QUARANTINED: CardDef = { key: "quarantined", label: "Quarantined", icon: ShieldAlertIcon, tone: "text-red-700" };

/** FleetOverviewCards are the liaison's four fleet figures (read-only), and "Quarantined N" when any. */
export function FleetOverviewCards({ stats }: { stats: LiaisonStats | undefined }) {
  const cards = (stats?.quarantined ?? 0) > 0 ? [...CARDS, QUARANTINED] : CARDS;
  return (
    <ul aria-label="Fleet figures" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {cards.map((c) => (
        <li key={c.key}>
          <Card className="h-full gap-2 py-4">
            <CardContent className="flex items-start justify-between gap-2 px-4">
              <div>
                <p className="text-xs font-medium text-muted-foreground sm:text-sm">
                  {c.desktopLabel ? (
                    <>
                      <span className="md:hidden">{c.label}</span>
                      <span className="hidden md:inline">{c.desktopLabel}</span>
                    </>
                  ) : (
                    c.label
                  )}
                </p>
                {stats ? (
                  <div className="text-3xl font-bold tabular-nums">{stats[c.key] ?? 0}</div>
                ) : (
                  <Skeleton className="mt-1 h-8 w-14" />
                )}
              </div>
              <c.icon aria-hidden className={`size-6 shrink-0 ${c.tone}`} />
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}
