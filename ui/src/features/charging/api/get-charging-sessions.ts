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

/**
 * chargingSessionsQueryOptions: the active sessions, soonest ETA first, from source's call
 * (GET /api/admin/charging-sessions, or the same list for the liaison at /api/liaison/charging-sessions).
 */
export function chargingSessionsQueryOptions(source: ChargingSessionsSource) {
  return queryOptions<ChargingSession[]>({
    queryKey: [`/api/${source}/charging-sessions`],
    meta: { staleOn: ["CHARGING_UPDATED", "charging"] },
    refetchInterval: CHARGING_POLL_MS,
  });
}

/** adminChargingSessionsQueryOptions: the admin's list (the dashboard's first screen loads it). */
export const adminChargingSessionsQueryOptions = chargingSessionsQueryOptions("admin");

/** useChargingSessions loads the active charging sessions from source, polling every 60 s. */
export function useChargingSessions(source: ChargingSessionsSource) {
  return useQuery(chargingSessionsQueryOptions(source));
}
