import { MutationCache, QueryCache, QueryClient, type QueryFunction } from "@tanstack/react-query";
import { type On401, getJSON, isUnauthorizedError, queryKeyUrl } from "@/lib/api-client";
import { isSafariLike } from "@/lib/browser";
import { toast } from "@/hooks/use-toast";
import type { StaleOn } from "@/lib/invalidation";
import { handleUnauthorized } from "@/lib/unauthorized";

/**
 * getQueryFn is the default query function: the query key joined with '/' is the URL
 * (so `queryKey: ["/api/admin/users"]` fetches that URL). on401 'returnNull' yields null.
 */
export function getQueryFn<T>({ on401 }: { on401: On401 }): QueryFunction<T | null> {
  return ({ queryKey, signal }) => getJSON<T>(queryKeyUrl(queryKey), on401, signal);
}

/**
 * Query meta `silentError` opts a query out of the global data-load failure toast when its
 * screen shows the failure itself; `staleOn` lists the changes that make it stale
 * (lib/invalidation.ts). Mutation meta `ignoreUnauthorized` keeps a 401 from
 * triggering the logged-out redirect (sign-in forms, where 401 means wrong credentials).
 */
declare module "@tanstack/react-query" {
  interface Register {
    queryMeta: { silentError?: boolean; staleOn?: StaleOn };
    mutationMeta: { ignoreUnauthorized?: boolean };
  }
}

/** DATA_LOAD_FAILED is the toast text for a failed data load (spec part 1 §8). */
export const DATA_LOAD_FAILED = { title: "Error", description: "Failed to load data. Please try again." } as const;

/**
 * onQueryError is the global rule for failed loads: a 401 leads to the unauthorized
 * handling; any other failure toasts 'Failed to load data' unless its message says the
 * account is pending approval (that screen explains itself) or the query is silent.
 */
export function onQueryError(error: Error, silent = false): void {
  if (isUnauthorizedError(error)) {
    handleUnauthorized();
    return;
  }
  if (silent || error.message.includes("Account pending approval")) return;
  toast({ ...DATA_LOAD_FAILED, variant: "destructive" });
}

/** retryDelayMs is the spec's delay before the single Safari retry (2 s), else 1 s. */
export function retryDelayMs(safari: boolean): number {
  return safari ? 2000 : 1000;
}

/**
 * makeQueryClient builds the app's QueryClient with the spec's defaults (part 1 §9): never
 * stale, no refetch on focus, no polling unless set, run even offline, no retries except
 * one after 2 s in Safari-like browsers; mutations never retry.
 */
export function makeQueryClient(safari: boolean = isSafariLike()): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => onQueryError(error, query.meta?.silentError) }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        if (isUnauthorizedError(error) && !mutation.meta?.ignoreUnauthorized) handleUnauthorized();
      },
    }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "throw" }),
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        networkMode: "always",
        retry: (failureCount, error) => safari && failureCount < 1 && !isUnauthorizedError(error),
        retryDelay: retryDelayMs(safari),
      },
      mutations: { retry: false, networkMode: "always" },
    },
  });
}

/** queryClient is the app's single QueryClient. */
export const queryClient = makeQueryClient();
