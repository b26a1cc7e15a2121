import { AUDIT_LIST } from "@/components/audit-entry-row";
import { useAudit } from "@/features/system/api/audit";
import { AdminRecordListCard } from "@/features/system/components/admin-record-list-card";

/**
 * AuditListCard is the Audit List block of /admin-system (issue 43): every change made to the
 * data directly through the PocketBase dashboard (/_/) or its record API that the server allowed,
 * newest first, with who made it and when, and which record and fields. Changes to the ledger,
 * packs' state and place and the other records only the app writes are refused there, so the
 * list holds plain data only (users, settings, terms drafts, photo notes, …), plus head office's uses
 * of its tokens and their issue and revocation (modules/headoffice). Admins only.
 */
export function AuditListCard() {
  return (
    <AdminRecordListCard
      {...AUDIT_LIST}
      useRows={useAudit}
      description={
        <>
          Changes made directly in the data dashboard (/_/), and what head office did with its tokens, newest first. The
          inventory, packs and signed records cannot be changed in the dashboard; use the app&apos;s own pages for them.
        </>
      }
    />
  );
}
