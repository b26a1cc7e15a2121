import { Badge } from "@/components/ui/badge";
import { type AuditEntry, useAudit } from "@/features/system/api/audit";
import { RecordListCard } from "@/features/system/components/record-list-card";
import { formatDateTimeYear } from "@/lib/format";

const ACTION_LABEL: Record<AuditEntry["action"], string> = { create: "Created", update: "Changed", delete: "Deleted", read: "Read" };

/** actorSuffix says what kind of writer a row's actor is (none for a user of the app). */
function actorSuffix(kind: string): string {
  if (kind === "_superusers") return " (superuser)";
  if (kind === "head_office") return " (head-office token)";
  return "";
}

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
    <RecordListCard
      useRows={useAudit}
      title="Audit List"
      description={
        <>
          Changes made directly in the data dashboard (/_/), and what head office did with its tokens, newest first. The
          inventory, packs and signed records cannot be changed in the dashboard; use the app&apos;s own pages for them.
        </>
      }
      error="Could not load the audit list."
      empty="No changes made in the data dashboard."
      listLabel="Audit list"
      rowKey={(r) => r.id}
      row={(r) => (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant={r.action === "delete" ? "destructive" : "secondary"}>{ACTION_LABEL[r.action]}</Badge>
            <span className="font-medium [overflow-wrap:anywhere]">
              {r.collection} {r.recordId}
            </span>
          </div>
          <dl className="grid grid-cols-[3.5rem_1fr] gap-x-3 gap-y-0.5 text-muted-foreground">
            <dt>By</dt>
            <dd className="[overflow-wrap:anywhere]">
              {r.actor || "unknown"}
              {actorSuffix(r.actorKind)}
            </dd>
            <dt>At</dt>
            <dd>{formatDateTimeYear(r.at)}</dd>
            {r.fields.length > 0 && (
              <>
                <dt>Fields</dt>
                <dd className="[overflow-wrap:anywhere]">{r.fields.join(", ")}</dd>
              </>
            )}
          </dl>
        </>
      )}
    />
  );
}
