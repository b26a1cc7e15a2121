import { queryOptions, useQuery } from "@tanstack/react-query";

/** HolderUser is a battery holder's user as the holder lists give it. */
export type HolderUser = { id: string; firstName: string; lastName: string; role?: string };

/** HolderAssignment is one holding of a holder: an assignment type and its quantity. */
export type HolderAssignment = { id: string; assignmentType: string; quantity: number; date: string };

/** HolderGroup is one user with everything they hold (GET /api/admin/battery-holders). */
export type HolderGroup = { user: HolderUser; total: number; assignments: HolderAssignment[] };

/** HOLDERS_POLL_MS: holder lists refresh every 60 s (spec part 2 §9). */
export const HOLDERS_POLL_MS = 60_000;

/** batteryHoldersQueryOptions: every user holding batteries, most first. */
export const batteryHoldersQueryOptions = queryOptions<HolderGroup[]>({
  queryKey: ["/api/admin/battery-holders"],
  refetchInterval: HOLDERS_POLL_MS,
  meta: { silentError: true, staleOn: ["INVENTORY_UPDATED", "driverOps", "activity", "custody"] },
});

/** useBatteryHolders loads the battery holders (the card shows its own load failure). */
export function useBatteryHolders() {
  return useQuery(batteryHoldersQueryOptions);
}
