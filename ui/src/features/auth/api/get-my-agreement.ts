import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, getJSON } from "@/lib/api-client";

/** MY_AGREEMENT_URL is the caller's own latest signed agreement. */
export const MY_AGREEMENT_URL = "/api/agreements/mine";

/**
 * MyAgreement is GET /api/agreements/mine: the caller's latest agreement, allowed from the
 * moment they sign (pending, rejected and suspended accounts too).
 */
export type MyAgreement = {
  id: string;
  termsVersion: string;
  signedAt: string;
  pdfStatus: "generating" | "available" | "failed";
  /** the download path when available, "" while generating, "ERROR: …" after a failure */
  pdfUrl: string;
};

/** MY_AGREEMENT_POLL_MS: while its PDF is being made, the agreement is asked for again this often. */
export const MY_AGREEMENT_POLL_MS = 5_000;

/** getMyAgreement reads the caller's agreement; null when they have none (404). */
export async function getMyAgreement({ signal }: { signal?: AbortSignal } = {}): Promise<MyAgreement | null> {
  try {
    return await getJSON<MyAgreement>(MY_AGREEMENT_URL, "throw", signal);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** myAgreementQueryOptions: the caller's agreement, asked again while its PDF is generating. */
export const myAgreementQueryOptions = queryOptions({
  queryKey: [MY_AGREEMENT_URL],
  queryFn: getMyAgreement,
  refetchInterval: (query) => (query.state.data?.pdfStatus === "generating" ? MY_AGREEMENT_POLL_MS : false),
  meta: { silentError: true },
});

/** useMyAgreement reads the caller's own agreement (null: none). */
export function useMyAgreement() {
  return useQuery(myAgreementQueryOptions);
}
