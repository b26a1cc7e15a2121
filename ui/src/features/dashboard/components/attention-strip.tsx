import {
  BatteryChargingIcon,
  BatteryWarningIcon,
  ChevronRightIcon,
  CircleCheckIcon,
  FileWarningIcon,
  MapPinOffIcon,
  ShieldAlertIcon,
  TriangleAlertIcon,
  UserPlusIcon,
  WaypointsIcon,
} from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { useAdminAttention, type Attention } from "@/features/dashboard/api/get-attention";
import { Skeleton } from "@/components/ui/skeleton";
import { anchors, paths } from "@/config/paths";
import { batteryCount } from "@/lib/format";

/** NOTHING_NEEDS_ATTENTION is the strip's one quiet line when every count is 0. */
export const NOTHING_NEEDS_ATTENTION = "Nothing needs your attention";

/** AttentionItem is one line of the strip: what needs action, and where it is handled. */
export type AttentionItem = { key: string; text: string; detail?: string; to: string; icon: React.ComponentType<{ className?: string }> };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * attentionItems turns the counts into the strip's lines, one per kind that has something, in
 * the order an admin handles them: damaged packs to decide on, batteries waiting on a charger,
 * people waiting for access, legal records to regenerate, then the packs to look into
 * (quarantined, missing, worn, scanned where the records did not have them).
 */
export function attentionItems(a: Attention): AttentionItem[] {
  const otherQuarantined = a.quarantinedPacks - a.damageReports;
  const worn = a.wornPacks ?? 0;
  const unnamed = a.unnamedBatteries ?? 0;
  const kinds: (AttentionItem & { count: number })[] = [
    {
      count: a.damageReports,
      key: "damage",
      text: `${plural(a.damageReports, "damaged pack", "damaged packs")} reported`,
      detail: "Quarantined: decide maintenance, back in service or retired",
      to: `${paths.packs.path}?state=quarantined`,
      icon: TriangleAlertIcon,
    },
    {
      count: a.chargingDue.sessions,
      key: "charging",
      text: `${plural(a.chargingDue.sessions, "charging session", "charging sessions")} due`,
      detail: `${batteryCount(a.chargingDue.batteries)} ready to take off the chargers`,
      to: paths.adminCharging.path,
      icon: BatteryChargingIcon,
    },
    {
      count: a.pendingApprovals,
      key: "approvals",
      text: `${plural(a.pendingApprovals, "user", "users")} waiting for approval`,
      to: paths.adminUsers.path,
      icon: UserPlusIcon,
    },
    {
      count: a.failedPdfs,
      key: "pdfs",
      text: `${plural(a.failedPdfs, "agreement PDF", "agreement PDFs")} failed`,
      detail: "Retry PDF in Signed Agreements",
      to: `${paths.adminSystem.path}#${anchors.signedAgreements}`,
      icon: FileWarningIcon,
    },
    {
      count: otherQuarantined,
      key: "quarantined",
      text: `${plural(otherQuarantined, "pack", "packs")} in quarantine`,
      detail: a.damageReports > 0 ? "Besides the damaged ones: recalls and checks" : "Recalls and checks waiting for a decision",
      to: `${paths.packs.path}?state=quarantined`,
      icon: ShieldAlertIcon,
    },
    {
      count: a.missingPacks,
      key: "missing",
      text: `${plural(a.missingPacks, "pack", "packs")} missing`,
      detail: "Not seen for days: see their last holder",
      to: `${paths.packs.path}?missing=1`,
      icon: MapPinOffIcon,
    },
    {
      count: worn,
      key: "worn",
      text: `${plural(worn, "worn pack", "worn packs")}`,
      detail: "Under their model's health threshold or losing it fast",
      to: `${paths.packs.path}?worn=1`,
      icon: BatteryWarningIcon,
    },
    {
      count: a.packDiscrepancies,
      key: "discrepancies",
      text: `${plural(a.packDiscrepancies, "pack discrepancy", "pack discrepancies")} this week`,
      detail: "Scanned where the records did not have them",
      to: paths.packs.path,
      icon: WaypointsIcon,
    },
    {
      count: unnamed,
      key: "unnamed",
      text: `${plural(unnamed, "battery", "batteries")} moved without packs`,
      detail: "Queued offline before packs became required: count the place to name them",
      to: paths.packs.path,
      icon: WaypointsIcon,
    },
  ];
  return kinds.filter((k) => k.count > 0).map(({ count: _, ...item }) => item);
}

/**
 * AttentionStrip is what needs action first on the admin Home (issue 28), right under the
 * counts: a link per kind that has something, to the screen where it is handled; one quiet
 * line when nothing does. Refreshes with the changes that move its counts.
 */
export function AttentionStrip() {
  const attention = useAdminAttention();
  if (attention.isPending) return <Skeleton className="h-11 w-full" />;
  if (attention.isError) return <p className="text-sm text-muted-foreground">Could not load what needs attention</p>;
  const items = attentionItems(attention.data);
  if (items.length === 0) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <CircleCheckIcon aria-hidden className="size-4 text-emerald-600" />
        {NOTHING_NEEDS_ATTENTION}
      </p>
    );
  }
  return (
    <section aria-label="Needs attention">
      <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        {items.map(({ key, text, detail, to, icon: Icon }) => (
          <li key={key}>
            <Link
              to={to}
              className="flex h-full min-h-11 items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950 hover:bg-amber-100 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            >
              <Icon aria-hidden className="size-5 shrink-0 text-amber-700" />
              <span className="min-w-0 flex-1">
                <span className="block text-sm font-semibold">{text}</span>
                {detail && <span className="block text-xs text-amber-900">{detail}</span>}
              </span>
              <ChevronRightIcon aria-hidden className="size-4 shrink-0 text-amber-700" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
