// zod/mini: the sign-in screen is the first download on a phone network (DESIGN.md §10), and the
// mini build is a fraction of the classic one; the schema reads the same.
import * as z from "zod/mini";
import { ApiError, apiRequest } from "@/lib/api-client";
import type { User } from "@/lib/user";
import { type SessionCallbacks, useSessionMutation } from "@/features/auth/api/use-session-mutation";

/** loginSchema: email and password are required (spec part 1 §5); code is the emailed sign-in code, once asked for. */
export const loginSchema = z.object({
  email: z.string().check(z.trim(), z.minLength(1, "Email is required")),
  password: z.string().check(z.minLength(1, "Password is required")),
  code: z.optional(z.string().check(z.trim())),
});

/** LoginInput is the sign-in form's values, with the id of the emailed code they answer (otpId). */
export type LoginInput = z.infer<typeof loginSchema> & { otpId?: string };

/**
 * CODE_REQUIRED is the answer's code when the account had many failed sign-ins from many
 * places: the right password is not enough, a code was emailed (data.otpId names it).
 */
export const CODE_REQUIRED = "sign_in_code_required";

/** emailedCodeId returns the otpId of a CODE_REQUIRED answer, or "" for any other error. */
export function emailedCodeId(error: unknown): string {
  if (!(error instanceof ApiError) || error.code !== CODE_REQUIRED) return "";
  const id = (error.data as { otpId?: unknown } | undefined)?.otpId;
  return typeof id === "string" ? id : "";
}

/** login signs in; the answer is the user and the session cookie is set. */
export function login(input: LoginInput): Promise<User> {
  return apiRequest<User>("POST", "/api/login", input);
}

/** useLogin signs in and stores the answer as the current user (callbacks as in useSessionMutation). */
export function useLogin(callbacks?: SessionCallbacks) {
  return useSessionMutation(login, callbacks);
}
