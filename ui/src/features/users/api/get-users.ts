import { queryOptions, useQuery } from "@tanstack/react-query";
import type { User } from "@/lib/user";

/** TermsStatus summarises a user's latest signed agreement (signed false: never signed). */
export type TermsStatus = {
  signed: boolean;
  /** pdfStatus is generating, available or failed. */
  pdfStatus: string;
  signedAt: string;
  version: string;
  agreementId: string;
};

/** AdminUser is one user as the admin user lists return it. */
export type AdminUser = User & {
  created: string;
  termsStatus?: TermsStatus;
};

/** usersQueryOptions: every user (GET /api/admin/users). */
export const usersQueryOptions = queryOptions<AdminUser[]>({
  queryKey: ["/api/admin/users"],
  meta: { staleOn: ["USERS_UPDATED", "TERMS_UPDATED", "users", "terms", "earnings"] },
});

/** useUsers loads every user. */
export function useUsers() {
  return useQuery(usersQueryOptions);
}
