import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/hooks/use-toast";
import { errorMessage, apiRequest } from "@/lib/api-client";
import { afterWrite } from "@/lib/invalidation";
import type { ApprovalState, User } from "@/lib/user";

/** UpdateApprovalInput approves or rejects one user; idempotencyKey is one per click. */
export type UpdateApprovalInput = { userId: string; isApproved: ApprovalState; idempotencyKey: string };

/** updateApproval sets a user's approval state (POST /api/admin/users/{id}/approval). */
export function updateApproval({ userId, isApproved, idempotencyKey }: UpdateApprovalInput): Promise<User> {
  return apiRequest<User>("POST", `/api/admin/users/${encodeURIComponent(userId)}/approval`, { isApproved }, { idempotencyKey });
}

/** useUpdateApproval approves or rejects a user and refreshes both user lists. */
export function useUpdateApproval() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateApproval,
    onSuccess: (_user, { isApproved }) =>
      toast({ title: isApproved === "approved" ? "User approved" : "User rejected" }),
    onError: (error) =>
      toast({ title: "Failed to update user approval", description: errorMessage(error, ""), variant: "destructive" }),
    onSettled: () => afterWrite(qc, "users"),
  });
}
