import { UsersPage } from "@/features/users/components/users-page";

/** AdminUsersRoute is /admin-users. */
export function AdminUsersRoute() {
  return <UsersPage />;
}
