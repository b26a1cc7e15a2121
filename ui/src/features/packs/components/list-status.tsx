import type * as React from "react";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";

/** ListStatusProps: the query, what failing says, what an empty answer says (falsy: it is not empty), the list. */
export type ListStatusProps<T> = {
  query: { data: T | undefined; isPending: boolean; isError: boolean };
  error: React.ReactNode;
  empty: (data: T) => React.ReactNode;
  /** children renders the list once the answer is in and not empty */
  children: (data: T) => React.ReactNode;
};

/** ListStatus is a packs list page's body: a skeleton while it loads, the alert if it failed, a card saying it is empty, else the list. */
export function ListStatus<T>({ query, error, empty, children }: ListStatusProps<T>) {
  if (query.isPending) return <Skeleton className="h-40 w-full" />;
  if (query.isError || query.data === undefined) {
    return (
      <p role="alert" className="text-destructive">
        {error}
      </p>
    );
  }
  const emptyText = empty(query.data);
  if (emptyText) {
    return (
      <Card>
        <CardContent className="py-6 text-center text-muted-foreground">{emptyText}</CardContent>
      </Card>
    );
  }
  return children(query.data);
}
