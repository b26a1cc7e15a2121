import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AuditEntry } from "@/components/audit-entry-row";
import { getJSON } from "@/lib/api-client";

/** AUDIT_URL lists the raw data changes (admins); also its query key. */
export const AUDIT_URL = "/api/admin/audit";

/** auditQueryOptions polls every 60 s while the System page is open. */
export const auditQueryOptions = queryOptions({
  queryKey: [AUDIT_URL],
  queryFn: async ({ signal }) => (await getJSON<{ entries: AuditEntry[] }>(AUDIT_URL, "throw", signal))?.entries ?? [],
  refetchInterval: 60_000,
});

/** useAudit reads the audit list; enabled for the administrator roles. */
export function useAudit(enabled: boolean) {
  return useQuery({ ...auditQueryOptions, enabled });
}
