import { queryOptions, useQuery } from "@tanstack/react-query";
import { getJSON } from "@/lib/api-client";

/** SIGN_IN_FAILURES_URL lists the sources with repeated failed sign-ins (admins); also its query key. */
export const SIGN_IN_FAILURES_URL = "/api/admin/sign-in-failures";

/**
 * SignInFailure is one account and source with 3 or more failed sign-ins in the last 15 minutes
 * (modules/auth.FailureReport); slowed: the source is waiting before its next attempt.
 */
export type SignInFailure = { account: string; source: string; count: number; lastAt: string; slowed: boolean };

/** signInFailuresQueryOptions polls every 30 s while the System page is open. */
export const signInFailuresQueryOptions = queryOptions({
  queryKey: [SIGN_IN_FAILURES_URL],
  queryFn: async ({ signal }) => (await getJSON<SignInFailure[]>(SIGN_IN_FAILURES_URL, "throw", signal)) ?? [],
  refetchInterval: 30_000,
});

/** useSignInFailures reads the list; enabled for the administrator roles. */
export function useSignInFailures(enabled: boolean) {
  return useQuery({ ...signInFailuresQueryOptions, enabled });
}
