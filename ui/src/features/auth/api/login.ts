import { useMutation } from "@tanstack/react-query";
// zod/mini: the sign-in screen is the first download on a phone network (DESIGN.md §10), and the
// mini build is a fraction of the classic one; the schema reads the same.
import * as z from "zod/mini";
import { apiRequest } from "@/lib/api-client";
import { useSetUser } from "@/lib/auth";
import type { User } from "@/lib/user";

/** loginSchema: email and password are required (spec part 1 §5). */
export const loginSchema = z.object({
  email: z.string().check(z.trim(), z.minLength(1, "Email is required")),
  password: z.string().check(z.minLength(1, "Password is required")),
});

/** LoginInput is the sign-in form's values. */
export type LoginInput = z.infer<typeof loginSchema>;

/** login signs in; the answer is the user and the session cookie is set. */
export function login(input: LoginInput): Promise<User> {
  return apiRequest<User>("POST", "/api/login", input);
}

/**
 * useLogin signs in and stores the answer as the current user. The callbacks are the hook's
 * (not mutate()'s): storing the user re-renders the sign-in screen away, and mutate()'s own
 * callbacks do not run once the form has unmounted.
 */
export function useLogin({ onSuccess, onError }: { onSuccess?: (user: User) => void; onError?: (error: Error) => void } = {}) {
  const setUser = useSetUser();
  return useMutation({
    mutationFn: login,
    meta: { ignoreUnauthorized: true },
    onSuccess: (user) => {
      onSuccess?.(user);
      setUser(user);
    },
    onError,
  });
}
