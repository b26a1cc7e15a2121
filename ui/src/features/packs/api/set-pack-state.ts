import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as z from "zod/mini";
import { PACK_STATES } from "@/features/packs/api/get-packs";
import { apiRequest } from "@/lib/api-client";
import { invalidate } from "@/lib/invalidation";

/** stateSchema is the change-state form. */
export const stateSchema = z.object({
  state: z.enum(PACK_STATES),
  reason: z.string().check(z.trim(), z.minLength(1, "Please give a reason for the change"), z.maxLength(2000, "A reason can be at most 2000 characters")),
});

/** StateValues are the change-state form's values. */
export type StateValues = z.infer<typeof stateSchema>;

/** useSetPackState changes a pack's state (admins); the list and the pack refetch. */
export function useSetPackState(serial: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ values, idempotencyKey }: { values: StateValues; idempotencyKey: string }) =>
      apiRequest<{ message: string }>("PUT", `/api/admin/packs/${encodeURIComponent(serial)}/state`, values, { idempotencyKey }),
    onSuccess: () => invalidate(qc, "packs"),
  });
}
