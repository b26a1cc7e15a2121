import { queryOptions, useQuery } from "@tanstack/react-query";

/** LiaisonHolderAssignment is one holding: an assignment type, quantity and the date it last changed. */
export type LiaisonHolderAssignment = { id: string; assignmentType: string; quantity: number; date: string };

/** LiaisonHolder is one user with their holdings (GET /api/liaison/battery-holders). */
export type LiaisonHolder = {
  user: { id: string; firstName: string; lastName: string; role?: string };
  total: number;
  assignments: LiaisonHolderAssignment[];
};

/** liaisonHoldersQueryOptions: battery holders for the liaison, refreshed every 60 s. */
export const liaisonHoldersQueryOptions = queryOptions<LiaisonHolder[]>({
  queryKey: ["/api/liaison/battery-holders"],
  meta: { staleOn: ["INVENTORY_UPDATED", "driverOps", "activity", "custody"] },
  refetchInterval: 60_000,
});

/** useLiaisonHolders loads the battery holders. */
export function useLiaisonHolders() {
  return useQuery(liaisonHoldersQueryOptions);
}
