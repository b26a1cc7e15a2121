import { useCustodyWrite } from "@/features/custody/api/custody-write";
import { apiRequest } from "@/lib/api-client";

/** DriverSwapInput is POST /api/admin/driver-swap's body plus the confirmed action's key. */
export type DriverSwapInput = {
  fromUserId: string;
  toUserId: string;
  goodBatteries: number;
  deadBatteries: number;
  returnGoodBatteries: number;
  returnDeadBatteries: number;
  isExchange: boolean;
  notes: string;
  idempotencyKey: string;
  /** the packs handed over and, in an exchange, handed back, under pack tracking (DESIGN.md §14) */
  goodPacks?: string[];
  deadPacks?: string[];
  returnGoodPacks?: string[];
  returnDeadPacks?: string[];
};

/** driverSwap moves batteries from one holder to another, and back in an exchange. */
export function driverSwap({ idempotencyKey, ...body }: DriverSwapInput): Promise<{ message: string }> {
  return apiRequest<{ message: string }>("POST", "/api/admin/driver-swap", body, { idempotencyKey });
}

/** useDriverSwap records a swap or exchange and refreshes holders, state and inventory. */
export function useDriverSwap() {
  return useCustodyWrite(driverSwap);
}
