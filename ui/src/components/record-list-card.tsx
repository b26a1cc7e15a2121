import type { UseQueryResult } from "@tanstack/react-query";
import * as React from "react";
import { CardList } from "@/components/card-list";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

/** RecordListCardProps are a RecordListCard's: who may see it, how its rows are read, its words and its row. */
export type RecordListCardProps<T> = {
  allowed: boolean;
  useRows: (enabled: boolean) => UseQueryResult<T[]>;
  title: string;
  description: React.ReactNode;
  error: string;
  empty: string;
  listLabel: string;
  rowKey: (row: T) => string;
  row: (row: T) => React.ReactNode;
};

/**
 * RecordListCard is a read-only list block for the callers allowed to see it (null for the
 * others, whose rows are never asked for): its title and description, then the rows useRows
 * reads as bordered items in a list named listLabel — or the error, "Loading..." or the empty
 * text instead. The city's System page (its admins: AdminRecordListCard) and head office's
 * Cities page (its hq_admins) show theirs with it.
 */
export function RecordListCard<T>({ allowed, useRows, title, description, error, empty, listLabel, rowKey, row }: RecordListCardProps<T>) {
  const query = useRows(allowed);
  const ids = React.useId();
  if (!allowed) return null;
  const rows = query.data ?? [];
  return (
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader>
        <CardTitle id={`${ids}-title`}>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {query.isError ? (
          <p className="text-sm text-destructive">{error}</p>
        ) : rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">{query.isPending ? "Loading..." : empty}</p>
        ) : (
          <CardList label={listLabel} rows={rows} rowKey={rowKey} itemClassName="grid gap-1 rounded-md border p-3 text-sm" item={row} />
        )}
      </CardContent>
    </Card>
  );
}
