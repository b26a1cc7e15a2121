import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { getJSON, isUnauthorizedError, queryKeyUrl } from "@/lib/api-client";
import { DATA_LOAD_FAILED } from "@/lib/query-client";
import { toast } from "@/hooks/use-toast";
import { ME_URL } from "@/hq/api";

/**
 * makeHqQueryClient is head office's QueryClient. Unlike the city's, an answer goes stale at
 * once (a screen shown again asks again: HQ's figures come from copies that move on their own)
 * and a 401 signs the screen out in place (the session is dropped: HQ's sign-in is at every
 * path, there is no /auth page to go to). A failed load toasts unless the query shows it itself.
 */
export function makeHqQueryClient(): QueryClient {
  const signedOut = (error: unknown) => {
    if (!isUnauthorizedError(error)) return false;
    qc.setQueryData([ME_URL], null);
    return true;
  };
  const qc: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (signedOut(error) || query.meta?.silentError) return;
        toast({ ...DATA_LOAD_FAILED, variant: "destructive" });
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        if (!mutation.meta?.ignoreUnauthorized) signedOut(error);
      },
    }),
    defaultOptions: {
      queries: {
        queryFn: ({ queryKey, signal }) => getJSON(queryKeyUrl(queryKey), "throw", signal),
        staleTime: 0,
        refetchOnWindowFocus: false,
        networkMode: "always",
        retry: false,
      },
      mutations: { retry: false, networkMode: "always" },
    },
  });
  return qc;
}
