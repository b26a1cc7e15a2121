import { queryOptions, useQuery } from "@tanstack/react-query";

/** InventoryStats are the five battery figures. */
export type InventoryStats = { total: number; ready: number; waiting: number; charging: number; inField: number; unaccounted?: number };

/** InventoryState is GET /api/inventory: settings, stats and the pool counts. */
export type InventoryState = {
  settings: Record<string, string>;
  stats: InventoryStats;
  ready: number;
  waiting: number;
  charging: number;
  total: number;
};

/** INVENTORY_POLL_MS: the emergency inventory panel refreshes every 60 s (spec part 2 §9). */
export const INVENTORY_POLL_MS = 60_000;

/** inventoryQueryOptions: the inventory state (admins). */
export const inventoryQueryOptions = queryOptions<InventoryState>({
  queryKey: ["/api/inventory"],
  meta: { staleOn: ["INVENTORY_UPDATED", "CHARGING_UPDATED", "driverOps", "activity", "charging", "custody"] },
  refetchInterval: INVENTORY_POLL_MS,
});

/** useInventory loads the inventory state, polling every 60 s. */
export function useInventory() {
  return useQuery(inventoryQueryOptions);
}
