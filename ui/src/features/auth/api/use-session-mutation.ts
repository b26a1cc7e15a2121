import { useMutation } from "@tanstack/react-query";
import { useSetUser } from "@/lib/auth";
import type { User } from "@/lib/user";

/** SessionCallbacks are a sign-in's or registration's own callbacks (see useSessionMutation). */
export type SessionCallbacks = { onSuccess?: (user: User) => void; onError?: (error: Error) => void };

/**
 * useSessionMutation runs a call that opens a session (sign-in, registration) and stores its
 * answer as the current user. The callbacks are the hook's (not mutate()'s): storing the user
 * re-renders the sign-in screen away, and mutate()'s own callbacks do not run once the form has
 * unmounted.
 */
export function useSessionMutation<I>(mutationFn: (input: I) => Promise<User>, { onSuccess, onError }: SessionCallbacks = {}) {
  const setUser = useSetUser();
  return useMutation({
    mutationFn,
    meta: { ignoreUnauthorized: true },
    onSuccess: (user) => {
      onSuccess?.(user);
      setUser(user);
    },
    onError,
  });
}
