import type { LiaisonHolder } from "@/features/liaison/api/get-liaison-battery-holders";

/** isOwner reports a holder shown with the '(Owner)' tag: the admin roles (spec part 1 §2). */
export function isOwner(role: string | undefined): boolean {
  return role === "admin" || role === "master_admin";
}

/** latestDate is the most recent date among a holder's assignments ('' when none). */
export function latestDate(h: LiaisonHolder): string {
  return h.assignments.reduce((max, a) => (a.date > max ? a.date : max), "");
}

/** AssetTotals are the Current Asset Assignments headline figures. */
export type AssetTotals = { personnel: number; assets: number };

/** assetTotals counts the people holding batteries and the batteries they hold. */
export function assetTotals(holders: readonly LiaisonHolder[]): AssetTotals {
  return { personnel: holders.length, assets: holders.reduce((n, h) => n + h.total, 0) };
}

/** TypeGroup is one assignment type with who holds how many of it. */
export type TypeGroup = { assignmentType: string; total: number; holders: { id: string; name: string; quantity: number }[] };

/** groupByType regroups the holdings by assignment type, largest type first. */
export function groupByType(holders: readonly LiaisonHolder[]): TypeGroup[] {
  const groups = new Map<string, TypeGroup>();
  for (const h of holders) {
    const name = `${h.user.firstName} ${h.user.lastName}`.trim();
    for (const a of h.assignments) {
      const g = groups.get(a.assignmentType) ?? { assignmentType: a.assignmentType, total: 0, holders: [] };
      g.total += a.quantity;
      g.holders.push({ id: a.id, name, quantity: a.quantity });
      groups.set(a.assignmentType, g);
    }
  }
  return [...groups.values()].sort((a, b) => b.total - a.total);
}
