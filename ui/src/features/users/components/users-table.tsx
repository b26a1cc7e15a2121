import { SearchIcon } from "lucide-react";
import * as React from "react";
import { QueryStatus } from "@/components/query-status";
import { ResponsiveTable } from "@/components/responsive-table";
import type { Column } from "@/components/table-columns";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useUsers, type AdminUser } from "@/features/users/api/get-users";
import { ROLE_OPTIONS } from "@/features/users/api/user-actions";
import { ApprovalBadge } from "@/features/users/components/approval-badge";
import { DeleteUserDialog } from "@/features/users/components/delete-user-dialog";
import { EditUserDialog } from "@/features/users/components/edit-user-dialog";
import { RoleBadge } from "@/features/users/components/role-badge";
import { TermsBadge } from "@/features/users/components/terms-badge";
import { UserActionsMenu } from "@/features/users/components/user-actions-menu";
import { errorMessage } from "@/lib/api-client";
import { formatDateTime } from "@/lib/format";
import { displayName, type Role } from "@/lib/user";

const STATUSES = ["approved", "pending", "suspended", "rejected"] as const;
const STATUS_OPTIONS = STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) }));

/** UserFilter is the All Users search and filters. */
export type UserFilter = { text: string; role: string; status: string };

/** filterUsers keeps the users whose name or email contains text and whose role and status match ("all" matches any). */
export function filterUsers(users: readonly AdminUser[], f: UserFilter): AdminUser[] {
  const q = f.text.trim().toLowerCase();
  return users.filter(
    (u) =>
      (f.role === "all" || u.role === f.role) &&
      (f.status === "all" || u.isApproved === f.status) &&
      (q === "" || `${u.firstName} ${u.lastName} ${u.email}`.toLowerCase().includes(q)),
  );
}

/**
 * UsersTable is the All Users list (spec part 2 §2): search by name or email, filter by role
 * and status; a table on desktop and cards on a phone with the role letter, status, terms
 * badge, pay reduction and each user's actions.
 */
export function UsersTable({ callerRole }: { callerRole: Role | undefined }) {
  const users = useUsers();
  const [filter, setFilter] = React.useState<UserFilter>({ text: "", role: "all", status: "all" });
  const [editing, setEditing] = React.useState<AdminUser | null>(null);
  const [deleting, setDeleting] = React.useState<AdminUser | null>(null);
  const shown = React.useMemo(() => filterUsers(users.data ?? [], filter), [users.data, filter]);
  const ids = React.useId();
  const actions = (u: AdminUser) => <UserActionsMenu user={u} callerRole={callerRole} onEdit={setEditing} onDelete={setDeleting} />;

  // a row as a card on a phone (the table from md up)
  const card = (u: AdminUser) => (
    <>
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="flex items-center gap-2 font-medium">
            <RoleBadge role={u.role} />
            <span className="truncate">{displayName(u)}</span>
          </p>
          <p className="truncate text-sm text-muted-foreground">{u.email}</p>
        </div>
        {actions(u)}
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <ApprovalBadge state={u.isApproved} />
        <TermsBadge status={u.termsStatus} />
        <span className="text-muted-foreground">Pay reduction {u.payReductionPercentage}%</span>
      </div>
      <p className="text-xs text-muted-foreground">Registered {formatDateTime(u.created)}</p>
    </>
  );
  const columns: Column<AdminUser>[] = [
    { head: "Name", className: "font-medium", cell: displayName },
    { head: "Email", className: "max-w-56 truncate", cell: (u) => u.email },
    { head: "Role", cell: (u) => <RoleBadge role={u.role} /> },
    { head: "Status", cell: (u) => <ApprovalBadge state={u.isApproved} /> },
    { head: "Terms", cell: (u) => <TermsBadge status={u.termsStatus} /> },
    { head: "Pay Reduction", headClassName: "text-right", className: "text-right tabular-nums", cell: (u) => `${u.payReductionPercentage}%` },
    { head: "Registered", className: "text-muted-foreground", cell: (u) => formatDateTime(u.created) },
    { head: <span className="sr-only">Actions</span>, className: "text-right", cell: actions },
  ];

  return (
    <Card role="region" aria-labelledby="all-users-title">
      <CardHeader>
        <CardTitle id="all-users-title">All Users</CardTitle>
        <CardDescription>
          {users.data ? `${shown.length} of ${users.data.length} user(s)` : "Everyone with an account"}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-[minmax(0,1fr)_12rem_12rem]">
          <div className="relative">
            <Label htmlFor={`${ids}-q`} className="sr-only">
              Search users
            </Label>
            <SearchIcon aria-hidden className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
            <Input
              id={`${ids}-q`}
              type="search"
              placeholder="Search by name or email"
              className="pl-8"
              value={filter.text}
              onChange={(e) => setFilter((f) => ({ ...f, text: e.target.value }))}
            />
          </div>
          <FilterSelect label="Filter by role" value={filter.role} onValueChange={(role) => setFilter((f) => ({ ...f, role }))} all="All roles" options={ROLE_OPTIONS} />
          <FilterSelect label="Filter by status" value={filter.status} onValueChange={(status) => setFilter((f) => ({ ...f, status }))} all="All statuses" options={STATUS_OPTIONS} itemClassName="capitalize" />
        </div>

        <QueryStatus query={users} skeletonClassName="h-24 w-full" error={errorMessage(users.error, "Failed to load data. Please try again.")} alert empty={users.data && shown.length === 0 && "No users match these filters"} />

        {shown.length > 0 && (
          <ResponsiveTable rows={shown} rowKey={(u) => u.id} listLabel="Users" labelledBy="all-users-title" columns={columns} card={card} />
        )}
      </CardContent>
      <EditUserDialog user={editing} callerRole={callerRole} onClose={() => setEditing(null)} />
      <DeleteUserDialog user={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}

/** FilterSelect is one of the All Users filters: a select named by label, "all" first, then the options. */
function FilterSelect({
  label,
  value,
  onValueChange,
  all,
  options,
  itemClassName,
}: {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  all: string;
  options: readonly { value: string; label: string }[];
  itemClassName?: string;
}) {
  return (
    <Select value={value} onValueChange={onValueChange}>
      <SelectTrigger aria-label={label}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value="all">{all}</SelectItem>
        {options.map((o) => (
          <SelectItem key={o.value} value={o.value} className={itemClassName}>
            {o.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
