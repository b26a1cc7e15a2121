import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { paths } from "@/config/paths";
import { ApiError, apiRequest } from "@/lib/api-client";
import { logError } from "@/lib/error-log";
import { setTimeZone } from "@/lib/format";
import { getQueryFn } from "@/lib/query-client";
import type { User } from "@/lib/user";
import { AUTH_USER_URL } from "@/lib/auth-url";

export { AUTH_USER_URL };

const fetchUser = getQueryFn<User>({ on401: "returnNull" });

/**
 * userQueryOptions: the current user, null when signed out (a 401 is not an error).
 * Spec part 1 §9: stale after 5 min, kept 10 min, at most 2 retries (never on 401),
 * backoff capped at 30 s. Its failures show the Connection Issue screen, not a toast.
 * The answer's timeZone becomes the zone every time is shown in (lib/format).
 */
export const userQueryOptions = queryOptions({
  queryKey: [AUTH_USER_URL],
  queryFn: async (context): Promise<User | null> => {
    const user = await fetchUser(context);
    setTimeZone(user?.timeZone);
    return user;
  },
  staleTime: 300_000,
  gcTime: 600_000,
  retry: (failureCount, error) => failureCount < 2 && !(error instanceof ApiError && error.status === 401),
  retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000),
  meta: { silentError: true, staleOn: ["session"] },
});

/** useUser reads the current user (data is null when signed out). */
export function useUser() {
  return useQuery(userQueryOptions);
}

/** useSetUser stores a user (from login, register or signing the terms) as the current user, and its time zone. */
export function useSetUser() {
  const qc = useQueryClient();
  return (user: User | null) => {
    setTimeZone(user?.timeZone);
    qc.setQueryData(userQueryOptions.queryKey, user);
  };
}

/** logout ends the session. */
export function logout(): Promise<unknown> {
  return apiRequest("POST", "/api/logout");
}

/**
 * useLogout signs out and then goes to `to` (default /auth) whatever the answer: a failed
 * logout is only logged (spec part 1 §8). Every cached query is dropped.
 */
export function useLogout(to: string = paths.auth.path) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    meta: { ignoreUnauthorized: true },
    onError: (error) => logError(error, "logout failed"),
    onSettled: () => {
      qc.clear();
      qc.setQueryData(userQueryOptions.queryKey, null);
      navigate(to, { replace: true });
    },
  });
}
