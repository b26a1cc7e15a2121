import { AUDIT_LIST } from "@/components/audit-entry-row";
import { RecordListCard } from "@/components/record-list-card";
import { isHqAdmin, useAudit, useMe } from "@/hq/api";

/**
 * HqAuditList is head office's Audit List (the city's, on its Cities page): every change made
 * directly in head office's data dashboard (/_/) or its record API that the server allowed —
 * a city or an account changed, a session ended — newest first, with who made it and when, and
 * which record and fields. Recalls, rollups and this list refuse such changes, so they never
 * show. hq_admin only (null for an hq_viewer, whose rows are never asked for).
 */
export function HqAuditList() {
  const me = useMe();
  return (
    <RecordListCard
      {...AUDIT_LIST}
      allowed={isHqAdmin(me.data)}
      useRows={useAudit}
      description={
        <>
          Changes made directly in head office&apos;s data dashboard (/_/), newest first. Recalls and the daily figures cannot be
          changed in the dashboard; use head office&apos;s own pages for them.
        </>
      }
    />
  );
}
