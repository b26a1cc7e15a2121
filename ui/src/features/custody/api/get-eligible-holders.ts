import { queryOptions, useQuery } from "@tanstack/react-query";

/** EligibleUser is a user as GET /api/admin/users lists it (the fields this feature reads). */
export type EligibleUser = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  isApproved: string;
};

/** HOLDER_ROLES are the roles that may hold batteries (spec part 2 §5). */
export const HOLDER_ROLES: readonly string[] = ["driver", "admin", "master_admin"];

/** adminUsersQueryOptions: every user (GET /api/admin/users); the same key as the Users page. */
export const adminUsersQueryOptions = queryOptions<EligibleUser[]>({
  queryKey: ["/api/admin/users"],
  meta: { staleOn: ["USERS_UPDATED", "TERMS_UPDATED", "users", "terms", "earnings"] },
});

/** eligibleHolders keeps approved users whose role may hold batteries, sorted by name. */
export function eligibleHolders(users: readonly EligibleUser[]): EligibleUser[] {
  return users
    .filter((u) => HOLDER_ROLES.includes(u.role) && u.isApproved === "approved")
    .sort((a, b) => `${a.firstName} ${a.lastName}`.localeCompare(`${b.firstName} ${b.lastName}`));
}

/** useEligibleHolders lists the users a manual assignment or swap may name. */
export function useEligibleHolders() {
  return useQuery({ ...adminUsersQueryOptions, select: eligibleHolders });
}
