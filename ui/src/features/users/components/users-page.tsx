import { PageHeader } from "@/components/layouts/app-shell";
import { PendingUsers } from "@/features/users/components/pending-users";
import { UsersTable } from "@/features/users/components/users-table";

/** UsersPage is /admin-users: the Pending Approval list and the All Users table. */
export function UsersPage() {
  return (
    <>
      <PageHeader title="Users" description="Approve new accounts and see everyone's role and status." />
      <div className="grid grid-cols-1 gap-6 [&>*]:min-w-0">
        <PendingUsers />
        <UsersTable />
      </div>
    </>
  );
}
