import { BatteryWarningIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import type { PackHealth } from "@/features/packs/api/get-pack-health";
import { formatDate } from "@/lib/format";

const number = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 1 });

/** formatPercent is a state of health as read: "72%", "72.5%". */
export function formatPercent(n: number): string {
  return `${number.format(n)}%`;
}

/** formatEnergy is an amount of energy: Wh under 10 kWh, kWh from there ("8,450 Wh", "123.4 kWh"). */
export function formatEnergy(wh: number): string {
  return wh < 10_000 ? `${number.format(wh)} Wh` : `${number.format(wh / 1000)} kWh`;
}

/** fullCyclesText says the equivalent full cycles: a count from energy, or "at most N" when only the charges are known. */
export function fullCyclesText(c: PackHealth["fullCycles"]): string {
  return c.basis === "charges" ? `at most ${number.format(c.value)} (counted from charges; the energy is not known)` : number.format(c.value);
}

/** sohSourceText says where a state of health comes from: "from the pack's BMS, 3 Nov 2026" or "estimated from charges". */
export function sohSourceText(soh: NonNullable<PackHealth["soh"]>): string {
  return soh.source === "reading" ? `from the pack's BMS, ${formatDate(soh.at)}` : "estimated from charges";
}

/** capacityText is the capacity in words: "12.1 of 15 Ah · 580 of 720 Wh" ("12.1 Ah" when the design figure is not known). */
export function capacityText(c: NonNullable<PackHealth["capacity"]>): string {
  const part = (full: number | undefined, design: number | undefined, unit: string) => {
    if (full === undefined) return design === undefined ? "" : `design ${number.format(design)} ${unit}`;
    return design === undefined ? `${number.format(full)} ${unit}` : `${number.format(full)} of ${number.format(design)} ${unit}`;
  };
  return [part(c.fullAh, c.designAh, "Ah"), part(c.fullWh, c.designWh, "Wh")].filter(Boolean).join(" · ");
}

/** trendText is the 30-day trend: "Lost 4 points in 30 days", "Gained 1 point…", "No change in 30 days". */
export function trendText(drop30: number): string {
  if (drop30 === 0) return "No change in 30 days";
  const n = Math.abs(drop30);
  const points = `${number.format(n)} ${n === 1 ? "point" : "points"}`;
  return drop30 > 0 ? `Lost ${points} in 30 days` : `Gained ${points} in 30 days`;
}

/** WornBadge marks a worn pack in a list or on its page. */
export function WornBadge() {
  return (
    <Badge variant="warning">
      <BatteryWarningIcon aria-hidden />
      Worn
    </Badge>
  );
}
