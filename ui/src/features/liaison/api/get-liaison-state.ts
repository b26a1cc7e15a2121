import { queryOptions, useQuery } from "@tanstack/react-query";

/** LiaisonStats are the five battery figures. */
export type LiaisonStats = { total: number; ready: number; waiting: number; charging: number; inField: number };

/** LiaisonMovement is a movement as the liaison gets it (no notes). */
export type LiaisonMovement = {
  id: string;
  type: string;
  quantity: number;
  createdAt: string;
  userId: string;
  user: { id: string; firstName: string; lastName: string; role?: string } | null;
};

/** LiaisonState is the part of GET /api/state the liaison dashboard reads. */
export type LiaisonState = { stats: LiaisonStats; recentMovements: LiaisonMovement[] };

/** liaisonStateQueryOptions: the state, refreshed every 60 s (key = the URL, shared with other screens). */
export const liaisonStateQueryOptions = queryOptions<LiaisonState>({
  queryKey: ["/api/state"],
  refetchInterval: 60_000,
});

/** useLiaisonState loads the state. */
export function useLiaisonState() {
  return useQuery(liaisonStateQueryOptions);
}
