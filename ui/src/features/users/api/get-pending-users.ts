import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminUser } from "@/features/users/api/get-users";

/** pendingUsersQueryOptions: users awaiting approval (GET /api/admin/users/pending). */
export const pendingUsersQueryOptions = queryOptions<AdminUser[]>({
  queryKey: ["/api/admin/users/pending"],
  meta: { staleOn: ["USERS_UPDATED", "users"] },
});

/** usePendingUsers loads the users awaiting approval. */
export function usePendingUsers() {
  return useQuery(pendingUsersQueryOptions);
}
