import type { UseQueryResult } from "@tanstack/react-query";
import * as React from "react";
import { CardList } from "@/components/card-list";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useUser } from "@/lib/auth";
import { isAdminRole } from "@/lib/user";

/**
 * RecordListCard is a read-only list block of /admin-system, for admins only (null for other
 * roles, whose rows are never asked for): its title and description, then the rows useRows
 * reads as bordered items in a list named listLabel — or the error, "Loading..." or the empty
 * text instead.
 */
export function RecordListCard<T>({
  useRows,
  title,
  description,
  error,
  empty,
  listLabel,
  rowKey,
  row,
}: {
  useRows: (enabled: boolean) => UseQueryResult<T[]>;
  title: string;
  description: React.ReactNode;
  error: string;
  empty: string;
  listLabel: string;
  rowKey: (row: T) => string;
  row: (row: T) => React.ReactNode;
}) {
  const user = useUser();
  const admin = isAdminRole(user.data?.role);
  const query = useRows(admin);
  const ids = React.useId();
  if (!admin) return null;
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
