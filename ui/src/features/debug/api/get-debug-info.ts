import { queryOptions, useQuery } from "@tanstack/react-query";
import { getJSON } from "@/lib/api-client";

/** JobState is one background job's last and next run. */
export type JobState = { name: string; lastRun?: string; nextRun?: string };

/** DebugInfo is GET /api/debug/info: what the server sees of itself and of the caller. */
export type DebugInfo = {
  serverTime: string;
  timeZone: string;
  localTime: string;
  version: string;
  commit: string;
  commitTime: string;
  modified: boolean;
  userId: string;
  role: string;
  approval: string;
  ip: string;
  userAgent: string;
  requestProto: string;
  admin?: {
    uptime: string;
    startedAt: string;
    goVersion: string;
    databaseBytes: number;
    socketClients: number;
    jobs: JobState[];
  };
};

/** debugInfoQueryOptions loads /api/debug/info; null when not signed in (the page opens without a session). */
export const debugInfoQueryOptions = () =>
  queryOptions({
    queryKey: ["/api/debug/info"],
    queryFn: ({ signal }) => getJSON<DebugInfo>("/api/debug/info", "returnNull", signal),
    staleTime: 0,
    retry: false,
  });

/** useDebugInfo is the server's view for /mobile-debug. */
export function useDebugInfo() {
  return useQuery(debugInfoQueryOptions());
}
