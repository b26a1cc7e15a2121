import type { BatteryStats, StateMovement } from "@/lib/state";

// The liaison dashboard reads /api/state through the one definition in lib/state.ts
// (stateQueryOptions, useAppState); these names say which parts it shows.

/** LiaisonStats are the five battery figures. */
export type LiaisonStats = Omit<BatteryStats, "unaccounted">;

/** LiaisonMovement is a movement as the liaison gets it (the server sends no notes). */
export type LiaisonMovement = Pick<StateMovement, "id" | "type" | "quantity" | "createdAt" | "recordedAt" | "userId" | "user">;
