import { queryOptions, useQuery } from "@tanstack/react-query";
import { getQueryFn } from "@/lib/query-client";

/** ActiveTerms is GET /api/terms-content/active. */
export type ActiveTerms = {
  id: string;
  title: string;
  version: string;
  effectiveDate: string;
  content: string;
  /** contentHash is the SHA-256 of content: sent back with the signature, so a change made meanwhile is refused */
  contentHash?: string;
};

/** activeTermsQueryOptions: the active terms, cached 5 minutes (spec part 1 §9). */
export const activeTermsQueryOptions = queryOptions({
  queryKey: ["/api/terms-content/active"],
  queryFn: getQueryFn<ActiveTerms>({ on401: "throw" }),
  staleTime: 300_000,
  gcTime: 300_000,
  meta: { silentError: true, staleOn: ["TERMS_UPDATED", "terms"] },
});

/** useActiveTerms loads the active terms while enabled (the modal shows its own failure text). */
export function useActiveTerms(enabled: boolean) {
  return useQuery({ ...activeTermsQueryOptions, enabled });
}
