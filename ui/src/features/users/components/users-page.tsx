import { PageHeader } from "@/components/layouts/app-shell";
import { CreateUserDialog } from "@/features/users/components/create-user-dialog";
import { PendingUsers } from "@/features/users/components/pending-users";
import { UsersTable } from "@/features/users/components/users-table";
import { useUser } from "@/lib/auth";

/** UsersPage is /admin-users: Create User, the Pending Approval list and the All Users table. */
export function UsersPage() {
  const me = useUser();
  const role = me.data?.role;
  return (
    <>
      <PageHeader title="Users" description="Create accounts, approve new ones, and manage roles, status and pay reduction.">
        <CreateUserDialog callerRole={role} />
      </PageHeader>
      <div className="grid grid-cols-1 gap-6 [&>*]:min-w-0">
        <PendingUsers />
        <UsersTable callerRole={role} />
      </div>
    </>
  );
}
