import { queryOptions, useQuery } from "@tanstack/react-query";
import type { User } from "@/lib/user";

/** AdminUser is one user as the admin user lists return it. */
export type AdminUser = User & {
  created: string;
  /** termsStatus is the agreement state as the server words it (e.g. signed, pending, pdf_failed). */
  termsStatus?: string;
};

/** usersQueryOptions: every user (GET /api/admin/users). */
export const usersQueryOptions = queryOptions<AdminUser[]>({ queryKey: ["/api/admin/users"] });

/** useUsers loads every user. */
export function useUsers() {
  return useQuery(usersQueryOptions);
}
