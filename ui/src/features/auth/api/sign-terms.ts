import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/hooks/use-toast";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { useSetUser } from "@/lib/auth";
import { afterWrite, invalidate } from "@/lib/invalidation";
import type { User } from "@/lib/user";

/** SIGN_TERMS_URL signs the active terms again after an admin's forced re-sign. */
export const SIGN_TERMS_URL = "/api/terms/sign";

/** SignaturePayload is a signature: the PNG data URL, how it was made, and the typed name. */
export type SignaturePayload = { signatureData: string; signatureMethod?: "drawn" | "typed"; signatureText?: string; termsHash?: string };

/** signTerms records the user's new signature; the answer is the updated user. */
export function signTerms(signature: SignaturePayload): Promise<User> {
  return apiRequest<User>("POST", SIGN_TERMS_URL, { acceptedTerms: true, ...signature });
}

/**
 * useSignTerms signs the terms again, stores the answer as the current user and refetches it,
 * so the app replaces the re-sign panel. Toasts 'Terms accepted' or 'Failed to sign terms'
 * with the server's message.
 */
export function useSignTerms({ onSuccess }: { onSuccess?: () => void } = {}) {
  const qc = useQueryClient();
  const setUser = useSetUser();
  return useMutation({
    mutationFn: signTerms,
    onSuccess: async (user) => {
      setUser(user);
      toast({ title: "Terms accepted" });
      onSuccess?.();
      await afterWrite(qc, "session");
    },
    onError: (error) => {
      // the terms may have changed while the user signed (409): show the new ones
      void invalidate(qc, "terms");
      toast({ title: "Failed to sign terms", description: errorMessage(error, "Please try again."), variant: "destructive" });
    },
  });
}
