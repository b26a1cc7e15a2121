import { useMutation } from "@tanstack/react-query";
// zod/mini, as in login.ts: part of the sign-in screen's first download.
import * as z from "zod/mini";
import { apiRequest } from "@/lib/api-client";
import { useSetUser } from "@/lib/auth";
import type { User } from "@/lib/user";

/** REQUIRED_FIELDS_TITLE is the register form's validation toast title (spec part 1 §5). */
export const REQUIRED_FIELDS_TITLE = "Required Fields";

const NAMES_REQUIRED = "First name and last name are required";
const CREDENTIALS_REQUIRED = "Email and password are required";

/** registerSchema: first and last name required, then email and password (spec part 1 §5). */
export const registerSchema = z.object({
  firstName: z.string().check(z.trim(), z.minLength(1, NAMES_REQUIRED), z.maxLength(100)),
  lastName: z.string().check(z.trim(), z.minLength(1, NAMES_REQUIRED), z.maxLength(100)),
  email: z.string().check(z.trim(), z.minLength(1, CREDENTIALS_REQUIRED)),
  password: z.string().check(z.minLength(1, CREDENTIALS_REQUIRED)),
});

/** RegisterInput is the register form's values. */
export type RegisterInput = z.infer<typeof registerSchema>;

/**
 * registrationError returns the one message the Required Fields toast shows for values,
 * names first (as the spec orders the checks), or null when they pass.
 */
export function registrationError(values: Partial<Record<keyof RegisterInput, string>>): string | null {
  const result = registerSchema.safeParse({
    firstName: values.firstName ?? "",
    lastName: values.lastName ?? "",
    email: values.email ?? "",
    password: values.password ?? "",
  });
  if (result.success) return null;
  const order: (keyof RegisterInput)[] = ["firstName", "lastName", "email", "password"];
  for (const field of order) {
    const issue = result.error.issues.find((i) => i.path[0] === field);
    if (issue) return issue.message;
  }
  return result.error.issues[0]?.message ?? null;
}

/** RegisterPayload is POST /api/register's body (spec part 1 §3). */
export type RegisterPayload = RegisterInput & {
  acceptedTerms: true;
  signatureData: string;
  /** how the signature was made: drawn on the pad, or the typed name (signatureText) rendered */
  signatureMethod?: "drawn" | "typed";
  signatureText?: string;
};

/** register creates the account with the signed terms; the answer is the new user. */
export function register(payload: RegisterPayload): Promise<User> {
  return apiRequest<User>("POST", "/api/register", payload);
}

/** useRegister registers and stores the answer as the current user (callbacks as in useLogin). */
export function useRegister({ onSuccess, onError }: { onSuccess?: (user: User) => void; onError?: (error: Error) => void } = {}) {
  const setUser = useSetUser();
  return useMutation({
    mutationFn: register,
    meta: { ignoreUnauthorized: true },
    onSuccess: (user) => {
      onSuccess?.(user);
      setUser(user);
    },
    onError,
  });
}
