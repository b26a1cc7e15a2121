import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as z from "zod/mini";
import type { AdminUser } from "@/features/users/api/get-users";
import { toast } from "@/hooks/use-toast";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { invalidate } from "@/lib/invalidation";
import type { Role, User } from "@/lib/user";

/** ROLE_OPTIONS are the roles an admin can give, in the order the selects list them. */
export const ROLE_OPTIONS: { value: Role; label: string }[] = [
  { value: "driver", label: "Driver" },
  { value: "admin", label: "Admin" },
  { value: "master_admin", label: "Master Admin" },
  { value: "corporate_liason", label: "Corporate Liaison" },
];

/** EMAIL_AND_PASSWORD is the Create User message when either is blank (spec part 2 §5). */
export const EMAIL_AND_PASSWORD = "Email and password are required";

const NAME_TOO_LONG = "First name and last name must be at most 100 characters";

/** PERCENT_RANGE is the pay reduction's message (spec part 2 §5). */
export const PERCENT_RANGE = "Please enter a number between 0 and 100";

/**
 * createUserSchema is the Create User dialog: email and password required (one message for
 * both, as the spec gives it), names and role optional, the bypass-terms checkbox.
 */
export const createUserSchema = z
  .object({
    firstName: z.string().check(z.trim(), z.maxLength(100, NAME_TOO_LONG)),
    lastName: z.string().check(z.trim(), z.maxLength(100, NAME_TOO_LONG)),
    email: z.string().check(z.trim()),
    password: z.string(),
    role: z.enum(["driver", "admin", "master_admin", "corporate_liason"]),
    bypassTerms: z.boolean(),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.email === "" || v.password === "") ctx.addIssue({ code: "custom", path: ["root"], message: EMAIL_AND_PASSWORD });
      else if (!z.email().safeParse(v.email).success) {
        ctx.addIssue({ code: "custom", path: ["email"], message: "Please enter a valid email address" });
      } else if (v.password.length < 6) {
        ctx.addIssue({ code: "custom", path: ["password"], message: "Password must be at least 6 characters" });
      }
    }),
  );

/** CreateUserValues are the Create User dialog's values. */
export type CreateUserValues = z.infer<typeof createUserSchema>;

/** EditUserValues are the Edit dialog's values (the password blank unless it changes). */
export type EditUserValues = {
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  password: string;
  payReductionPercentage: string;
};

/** editUserSchema is the Edit dialog: a valid email, a new password of 6 or more or blank, the pay reduction 0-100. */
export const editUserSchema = z.object({
  firstName: z.string().check(z.trim(), z.maxLength(100, NAME_TOO_LONG)),
  lastName: z.string().check(z.trim(), z.maxLength(100, NAME_TOO_LONG)),
  email: z.pipe(z.string().check(z.trim(), z.minLength(1, "Email is required")), z.email("Please enter a valid email address")),
  role: z.enum(["driver", "admin", "master_admin", "corporate_liason"]),
  password: z.string().check(z.refine((p) => p === "" || p.length >= 6, "Password must be at least 6 characters")),
  payReductionPercentage: z.string().check(
    z.trim(),
    z.refine((v) => /^\d+$/.test(v) && Number(v) <= 100, PERCENT_RANGE),
  ),
});

/** editValues fills the Edit dialog from a user. */
export function editValues(u: AdminUser): EditUserValues {
  return {
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    role: u.role,
    password: "",
    payReductionPercentage: String(u.payReductionPercentage ?? 20),
  };
}

/** UserChanges is PUT /api/admin/users/{id}'s body: only what changed. */
export type UserChanges = Partial<Pick<User, "firstName" | "lastName" | "email" | "role" | "payReductionPercentage">> & {
  password?: string;
};

/**
 * changedFields compares the edited values with the user and keeps only what changed (spec
 * part 2 §2): a blank password keeps the old one; the pay reduction is a whole number.
 */
export function changedFields(u: AdminUser, v: z.output<typeof editUserSchema>): UserChanges {
  const out: UserChanges = {};
  if (v.firstName !== u.firstName) out.firstName = v.firstName;
  if (v.lastName !== u.lastName) out.lastName = v.lastName;
  if (v.email.toLowerCase() !== u.email.toLowerCase()) out.email = v.email;
  if (v.role !== u.role) out.role = v.role;
  if (v.password !== "") out.password = v.password;
  const pay = Number(v.payReductionPercentage);
  if (pay !== u.payReductionPercentage) out.payReductionPercentage = pay;
  return out;
}

/** clampPercent keeps a typed pay reduction within 0-100 (spec part 2 §2); other text is left for the check. */
export function clampPercent(raw: string): string {
  const t = raw.trim();
  if (!/^-?\d+$/.test(t)) return raw;
  return String(Math.min(100, Math.max(0, Number(t))));
}

const path = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

function useUserMutation<I>(fn: (input: I) => Promise<unknown>, failure: string, success?: (res: unknown, input: I) => string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (res, input) => {
      if (success) toast({ title: success(res, input) });
    },
    onError: (error) => toast({ title: failure, description: errorMessage(error, failure), variant: "destructive" }),
    onSettled: () => invalidate(qc, "users"),
  });
}

type Keyed = { idempotencyKey: string };

/** useCreateUser creates an approved account (POST /api/admin/users/create). */
export function useCreateUser() {
  return useUserMutation(
    ({ idempotencyKey, ...body }: CreateUserValues & Keyed) =>
      apiRequest<User>("POST", "/api/admin/users/create", body, { idempotencyKey }),
    "Failed to create user",
    () => "User created",
  );
}

/** useUpdateUser sends the changed fields (PUT /api/admin/users/{id}). */
export function useUpdateUser() {
  return useUserMutation(
    ({ id, changes, idempotencyKey }: { id: string; changes: UserChanges } & Keyed) =>
      apiRequest<User>("PUT", path(id), changes, { idempotencyKey }),
    "Failed to update user",
    () => "User updated",
  );
}

/** useSuspendUser suspends an account; its sessions end at once (POST /api/admin/users/{id}/suspend). */
export function useSuspendUser() {
  return useUserMutation(
    ({ id, idempotencyKey }: { id: string } & Keyed) => apiRequest<User>("POST", `${path(id)}/suspend`, {}, { idempotencyKey }),
    "Failed to suspend user",
    () => "User suspended",
  );
}

/** useDeleteUser deletes an account (DELETE /api/admin/users/{id}). */
export function useDeleteUser() {
  return useUserMutation(
    ({ id, idempotencyKey }: { id: string } & Keyed) => apiRequest<{ message: string }>("DELETE", path(id), undefined, { idempotencyKey }),
    "Failed to delete user",
    () => "User deleted",
  );
}

/** useForceResign makes a user sign the terms again at next login; the server's message is shown. */
export function useForceResign() {
  return useUserMutation(
    ({ id, idempotencyKey }: { id: string } & Keyed) =>
      apiRequest<{ message: string }>("POST", `/api/admin/force-terms-resigning/${encodeURIComponent(id)}`, {}, { idempotencyKey }),
    "Failed to force T&C re-signing",
    (res) => (res as { message?: string } | undefined)?.message || "The user must re-sign the terms at next login",
  );
}

/** MasterAction names what only a master admin may do to a master admin account (spec part 2 §6). */
export type MasterAction = "edit" | "suspend" | "delete" | "force re-sign";

/**
 * masterOnly returns the 'Access Denied' text when the caller may not do action to target: only
 * a master_admin may edit, suspend, delete or force re-sign a master_admin account. The server
 * refuses the same.
 */
export function masterOnly(caller: Role | undefined, target: AdminUser, action: MasterAction): string | null {
  if (target.role !== "master_admin" || caller === "master_admin") return null;
  return `Only Master Admins can ${action} Master Admin accounts`;
}
