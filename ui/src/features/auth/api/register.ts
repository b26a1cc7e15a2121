import type { FieldErrors } from "react-hook-form";
// zod/mini, as in login.ts: part of the sign-in screen's first download.
import * as z from "zod/mini";
import { apiRequest } from "@/lib/api-client";
import type { User } from "@/lib/user";
import { type SessionCallbacks, useSessionMutation } from "@/features/auth/api/use-session-mutation";

/** REQUIRED_FIELDS_TITLE is the register form's validation toast title (spec part 1 §5). */
export const REQUIRED_FIELDS_TITLE = "Required Fields";

const NAMES_REQUIRED = "First name and last name are required";
const CREDENTIALS_REQUIRED = "Email and password are required";

/**
 * registerSchema is the Register tab's resolver (spec part 1 §5): first and last name required,
 * then email and password; its output is trimmed.
 */
export const registerSchema = z.object({
  firstName: z.string().check(z.trim(), z.minLength(1, NAMES_REQUIRED), z.maxLength(100)),
  lastName: z.string().check(z.trim(), z.minLength(1, NAMES_REQUIRED), z.maxLength(100)),
  email: z.string().check(z.trim(), z.minLength(1, CREDENTIALS_REQUIRED)),
  password: z.string().check(z.minLength(1, CREDENTIALS_REQUIRED)),
});

/** RegisterInput is the register form's values. */
export type RegisterInput = z.infer<typeof registerSchema>;

const FIELD_ORDER: (keyof RegisterInput)[] = ["firstName", "lastName", "email", "password"];

/**
 * registrationError returns the one message the Required Fields toast shows for the form's
 * errors, names first (as the spec orders the checks), or null when there are none.
 */
export function registrationError(errors: FieldErrors<RegisterInput>): string | null {
  for (const field of FIELD_ORDER) {
    const message = errors[field]?.message;
    if (message) return message;
  }
  return null;
}

/** RegisterPayload is POST /api/register's body (spec part 1 §3). */
export type RegisterPayload = RegisterInput & {
  acceptedTerms: true;
  signatureData: string;
  /** how the signature was made: drawn on the pad, or the typed name (signatureText) rendered */
  signatureMethod?: "drawn" | "typed";
  signatureText?: string;
  /** the contentHash of the terms the modal showed */
  termsHash?: string;
};

/** register creates the account with the signed terms; the answer is the new user. */
export function register(payload: RegisterPayload): Promise<User> {
  return apiRequest<User>("POST", "/api/register", payload);
}

/** useRegister registers and stores the answer as the current user (callbacks as in useSessionMutation). */
export function useRegister(callbacks?: SessionCallbacks) {
  return useSessionMutation(register, callbacks);
}
