import type { RecordListCardProps } from "@/components/record-list-card";
import { Badge } from "@/components/ui/badge";
import { formatDateTimeYear } from "@/lib/format";

/**
 * AuditEntry is one row of an audit list (lib/audit.Entry on the server): a raw write made
 * through PocketBase's record API or its /_/ dashboard that the server's guards allowed (hooks/),
 * who made it, when, and which record and fields. The city's list (GET /api/admin/audit) also
 * holds head office's uses of its tokens (actorKind "head_office", action "read" among them);
 * head office's own (GET /api/hq/audit) the writes in its /_/.
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

const ACTION_LABEL: Record<AuditEntry["action"], string> = { create: "Created", update: "Changed", delete: "Deleted", read: "Read" };

/** actorSuffix says what kind of writer a row's actor is (none for a user of the app). */
function actorSuffix(kind: string): string {
  if (kind === "_superusers") return " (superuser)";
  if (kind === "head_office") return " (head-office token)";
  return "";
}

/** AuditEntryRow is one audit list row: what was done to which record, by whom, when, which fields. */
export function AuditEntryRow({ entry: r }: { entry: AuditEntry }) {
  return (
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
  );
}

/**
 * AUDIT_LIST is an Audit List block's words and rows (RecordListCard's props but who may see it,
 * its query and its description): the city's System page and head office's Cities page show
 * the same list.
 */
export const AUDIT_LIST = {
  title: "Audit List",
  error: "Could not load the audit list.",
  empty: "No changes made in the data dashboard.",
  listLabel: "Audit list",
  rowKey: (r) => r.id,
  row: (r) => <AuditEntryRow entry={r} />,
} satisfies Pick<RecordListCardProps<AuditEntry>, "title" | "error" | "empty" | "listLabel" | "rowKey" | "row">;
