import { queryOptions, useQuery } from "@tanstack/react-query";
import { getJSON } from "@/lib/api-client";

/** REPLICATION_URL is the replication status call (master admin); its URL is also its query key. */
export const REPLICATION_URL = "/api/admin/replication";

/**
 * ReplicationStatus is GET /api/admin/replication (modules/replication.Status): whether data.db
 * is replicated, where to (never with credentials), the lag and the last sync. warning is set
 * when the lag passes 60 s or uploads fail.
 */
export type ReplicationStatus = {
  enabled: boolean;
  target?: string;
  source?: string;
  litestream?: string;
  lastSync?: string;
  lagSeconds: number;
  localTxid: number;
  replicaTxid: number;
  lastError?: string;
  lastErrorAt?: string;
  warning?: string;
};

/** replicationQueryOptions polls the status every 10 s while the page is open. */
export const replicationQueryOptions = queryOptions({
  queryKey: [REPLICATION_URL],
  queryFn: ({ signal }) => getJSON<ReplicationStatus>(REPLICATION_URL, "throw", signal) as Promise<ReplicationStatus>,
  refetchInterval: 10_000,
});

/** useReplication reads the replication status; enabled only for a master admin. */
export function useReplication(enabled: boolean) {
  return useQuery({ ...replicationQueryOptions, enabled });
}

/** lagText is the lag as the card shows it: "under 1 s", "12 s", "3 min 5 s". */
export function lagText(seconds: number): string {
  if (seconds < 1) return "under 1 s";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}
