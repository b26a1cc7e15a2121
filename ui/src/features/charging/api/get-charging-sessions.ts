import { queryOptions, useQuery } from "@tanstack/react-query";

/** ChargerType is one of the three charger types (spec part 1 §9). */
export type ChargerType = "2.5A" | "4A" | "5A";

/** CHARGER_TYPES lists the charger types in the order the forms offer them. */
export const CHARGER_TYPES: readonly ChargerType[] = ["2.5A", "4A", "5A"];

/** ChargingSession is one active charging session (spec part 1 §3). Times are RFC 3339. */
export type ChargingSession = {
  id: string;
  quantity: number;
  chargerType: string;
  startedAt: string;
  etaAt: string;
};

/** ChargingSessionsSource picks the list: the admin's call, or the liaison's (admins may use it too). */
export type ChargingSessionsSource = "admin" | "liaison";

/** CHARGING_POLL_MS is the charging sessions' polling interval (spec part 1 §9). */
export const CHARGING_POLL_MS = 60_000;

/** adminChargingSessionsQueryOptions: active sessions, soonest ETA first (GET /api/admin/charging-sessions). */
export const adminChargingSessionsQueryOptions = queryOptions<ChargingSession[]>({
  queryKey: ["/api/admin/charging-sessions"],
  meta: { staleOn: ["CHARGING_UPDATED", "charging"] },
  refetchInterval: CHARGING_POLL_MS,
});

/** liaisonChargingSessionsQueryOptions: the same list for the liaison (GET /api/liaison/charging-sessions). */
export const liaisonChargingSessionsQueryOptions = queryOptions<ChargingSession[]>({
  queryKey: ["/api/liaison/charging-sessions"],
  meta: { staleOn: ["CHARGING_UPDATED", "charging"] },
  refetchInterval: CHARGING_POLL_MS,
});

/** chargingSessionsQueryOptions returns the query options of source. */
export function chargingSessionsQueryOptions(source: ChargingSessionsSource) {
  return source === "admin" ? adminChargingSessionsQueryOptions : liaisonChargingSessionsQueryOptions;
}

/** useChargingSessions loads the active charging sessions from source, polling every 60 s. */
export function useChargingSessions(source: ChargingSessionsSource) {
  return useQuery(chargingSessionsQueryOptions(source));
}
