import { queryOptions, useQuery } from "@tanstack/react-query";
import { STATE_POLL_MS } from "@/lib/state";

/**
 * Attention is what needs an admin's action first (GET /api/admin/attention): the charging
 * sessions due (ETA now or past, the sessions table's 'Due') and their batteries, the accounts
 * awaiting approval, the agreement PDFs that failed, and the packs' part (DESIGN.md §14): open
 * damage reports (the pack still quarantined), quarantined packs, missing packs, the pack
 * discrepancies of the last 7 days and the worn packs (§16).
 */
export type Attention = {
  chargingDue: { sessions: number; batteries: number };
  pendingApprovals: number;
  failedPdfs: number;
  damageReports: number;
  quarantinedPacks: number;
  missingPacks: number;
  packDiscrepancies: number;
  /** unnamedBatteries moved without packs in required mode this week (offline actions keyed before the switch). */
  unnamedBatteries?: number;
  /** unnamedInBay: in required mode, the bay's batteries no pack names yet (a stocktake of the whole bay names them). */
  unnamedInBay?: number;
  /** wornPacks: packs under their model's state-of-health threshold or losing it fast (DESIGN.md §16). */
  wornPacks?: number;
};

/**
 * adminAttentionQueryOptions: GET /api/admin/attention, refreshed by the changes that move
 * its counts (lib/invalidation.ts) and polled with the state (a session falls due as time passes;
 * the charging-due job also announces it).
 */
export const adminAttentionQueryOptions = queryOptions<Attention>({
  queryKey: ["/api/admin/attention"],
  meta: { staleOn: ["CHARGING_UPDATED", "USERS_UPDATED", "TERMS_UPDATED", "INVENTORY_UPDATED", "charging", "users", "terms", "packs"] },
  refetchInterval: STATE_POLL_MS,
});

/** useAdminAttention reads what needs the admin's action. */
export function useAdminAttention() {
  return useQuery(adminAttentionQueryOptions);
}
