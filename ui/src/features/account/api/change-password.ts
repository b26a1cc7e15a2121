import { useMutation } from "@tanstack/react-query";
import * as z from "zod/mini";
import { apiRequest } from "@/lib/api-client";

/** changePasswordSchema holds the change-password rules and messages (spec part 2 §5). */
export const changePasswordSchema = z
  .object({
    currentPassword: z.string().check(z.minLength(1, "Current password is required")),
    newPassword: z.string().check(z.minLength(6, "New password must be at least 6 characters")),
    confirmPassword: z.string().check(z.minLength(1, "Please confirm your new password")),
  })
  .check(
    z.refine((v) => v.confirmPassword === "" || v.newPassword === v.confirmPassword, {
      message: "Passwords don't match",
      path: ["confirmPassword"],
    }),
  );

/** ChangePasswordInput is the form's values. */
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** changePassword sets a new password (POST /api/change-password). */
export function changePassword({ currentPassword, newPassword }: ChangePasswordInput): Promise<unknown> {
  return apiRequest("POST", "/api/change-password", { currentPassword, newPassword });
}

/** useChangePassword changes the signed-in user's password (a wrong current password is not a logout). */
export function useChangePassword() {
  return useMutation({ mutationFn: changePassword, meta: { ignoreUnauthorized: true } });
}
