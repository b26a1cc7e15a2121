import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api-client";

/** LoadStatus is a transfers page's spinner while its query loads, and the alert when it failed (the server's words, else failure). */
export function LoadStatus({ query, loading, failure }: { query: { isPending: boolean; isError: boolean; error: unknown }; loading: string; failure: string }) {
  return (
    <>
      {query.isPending && <Spinner label={loading} />}
      {query.isError && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {errorMessage(query.error, failure)}
        </p>
      )}
    </>
  );
}
