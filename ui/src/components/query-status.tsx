import type * as React from "react";
import { Skeleton } from "@/components/ui/skeleton";

/** QueryStatusProps: the query, the skeleton's size, what failing says (an alert or not), what an empty answer says. */
export type QueryStatusProps = {
  query: { isPending: boolean; isError: boolean };
  /** skeletonClassName sizes the Skeleton shown while the query loads ("h-24 w-full") */
  skeletonClassName: string;
  error: React.ReactNode;
  /** alert announces the error (role="alert") */
  alert?: boolean;
  /** empty is shown, muted, when truthy: what the loaded answer has nothing of ("No users match these filters") */
  empty?: React.ReactNode;
};

/**
 * QueryStatus is what a card shows of its query besides its content: a skeleton while it
 * loads, the error when it fails, the empty text when the answer has nothing to show.
 */
export function QueryStatus({ query, skeletonClassName, error, alert, empty }: QueryStatusProps) {
  return (
    <>
      {query.isPending && <Skeleton className={skeletonClassName} />}
      {query.isError && (
        <p role={alert ? "alert" : undefined} className="text-sm text-destructive">
          {error}
        </p>
      )}
      {empty && <p className="text-sm text-muted-foreground">{empty}</p>}
    </>
  );
}
