import { useCustodyWrite } from "@/features/custody/api/custody-write";
import { apiRequest } from "@/lib/api-client";

/** DeadTransferInput is POST /api/admin/dead-battery-transfer's body plus the action's key. */
export type DeadTransferInput = {
  fromUserId: string;
  toUserId: string;
  deadBatteries: number;
  notes: string;
  idempotencyKey: string;
  /** deadPacks are the packs handed over, under pack tracking (DESIGN.md §14). */
  deadPacks?: string[];
};

/** deadBatteryTransfer moves dead batteries from one holder to another. */
export function deadBatteryTransfer({ idempotencyKey, ...body }: DeadTransferInput): Promise<{ message: string }> {
  return apiRequest<{ message: string }>("POST", "/api/admin/dead-battery-transfer", body, { idempotencyKey });
}

/** useDeadBatteryTransfer records a dead-battery transfer and refreshes holders, state and inventory. */
export function useDeadBatteryTransfer() {
  return useCustodyWrite(deadBatteryTransfer);
}
