import { queryOptions, useQuery } from "@tanstack/react-query";
import { getJSON } from "@/lib/api-client";

/** AUDIT_URL lists the raw data changes (admins); also its query key. */
export const AUDIT_URL = "/api/admin/audit";

/**
 * AuditEntry is one raw write made through PocketBase's record API or its /_/ dashboard that
 * the server's guards allowed (hooks/, modules/system.AuditEntry): who, when, which record and
 * fields. The ledger's own tables refuse such writes, so they never appear here. Head office's
 * uses of a token are rows too (actorKind "head_office": a recall started, a read), and so are a
 * token's issue and revocation.
 */
export type AuditEntry = {
  id: string;
  at: string;
  actor: string;
  actorKind: string;
  action: "create" | "update" | "delete" | "read";
  collection: string;
  recordId: string;
  fields: string[];
};

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
