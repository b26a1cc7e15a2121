import { queryOptions, useQuery } from "@tanstack/react-query";

/** STATE_POLL_MS is the dashboards' refresh interval for /api/state (spec part 1 §9). */
export const STATE_POLL_MS = 60_000;

/** BatteryStats are the five battery figures; unaccounted comes to admins when not 0. */
export type BatteryStats = {
  total: number;
  ready: number;
  waiting: number;
  charging: number;
  inField: number;
  /** quarantined: batteries of out-of-use packs on the quarantine shelf, neither ready nor waiting (DESIGN.md §14). */
  quarantined?: number;
  unaccounted?: number;
};

/** StatKey names one of the five editable figures. */
export type StatKey = "total" | "ready" | "waiting" | "charging" | "inField";

/** StateUser is the user shown beside a movement or holding. */
export type StateUser = { id: string; firstName: string; lastName: string; email?: string; role?: string };

/** StateMovement is one entry of /api/state's recentMovements. */
export type StateMovement = {
  id: string;
  type: string;
  quantity: number;
  notes: string;
  createdAt: string;
  /** recordedAt is when the server recorded it (later than createdAt for an action sent late). */
  recordedAt?: string;
  userId: string;
  user: StateUser | null;
};

/** StateSession is an active charging session (same shape as the charging feature's). */
export type StateSession = { id: string; quantity: number; chargerType: string; startedAt: string; etaAt: string };

/** StateHolder is one holding of batteries outside the bay. */
export type StateHolder = {
  id: string;
  user: StateUser;
  type: string;
  assignmentType: string;
  quantity: number;
  date: string;
};

/** WeekActivity is the caller's Monday–Sunday week of moves and recovers. */
export type WeekActivity = {
  weekStart: string;
  weekEnd: string;
  days: { date: string; rebalanceQty: number; retrievesRepairsQty: number; batteries: number }[];
  totals: { rebalanceQty: number; retrievesRepairsQty: number; batteries: number };
};

/** AppState is GET /api/state (spec part 1 §3; modules/activity/state.go). */
export type AppState = {
  stats: BatteryStats;
  recentMovements: StateMovement[];
  chargingSessions: StateSession[];
  activeBatteryHolders: StateHolder[];
  inFieldSummary: { userId: string; type: string; quantity: number }[];
  driverDailyActivity: { rebalanceToday: number; retrievesRepairsToday: number };
  driverWeeklyActivity: WeekActivity;
  driverLastWeekActivity: WeekActivity;
  /** time_zone is the operation's IANA zone (feeds write a late action's times in it). */
  settings: { dropoff_prompt: string; pickup_prompt: string; time_zone?: string; pack_tracking?: string };
};

/** stateQueryOptions: GET /api/state, refreshed every 60 s and after every mutation. */
export const stateQueryOptions = queryOptions<AppState>({
  queryKey: ["/api/state"],
  meta: { staleOn: ["INVENTORY_UPDATED", "ACTIVITY_UPDATED", "CHARGING_UPDATED", "driverOps", "activity", "charging", "custody", "stats"] },
  refetchInterval: STATE_POLL_MS,
});

/** useAppState reads /api/state. */
export function useAppState() {
  return useQuery(stateQueryOptions);
}
