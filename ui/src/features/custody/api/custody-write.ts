import { useMutation, useQueryClient } from "@tanstack/react-query";
import { afterWrite, invalidate } from "@/lib/invalidation";

/**
 * useCustodyWrite is the mutation of a write that moves batteries between holders: done, what
 * the answer changed is refreshed (holders, state, inventory); failed, they are read again
 * anyway (the server may have moved them before it refused).
 */
export function useCustodyWrite<TInput, TAnswer>(mutationFn: (input: TInput) => Promise<TAnswer>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn, onSuccess: (answer) => afterWrite(qc, "custody", answer), onError: () => invalidate(qc, "custody") });
}
