import type * as React from "react";
import { CardList } from "@/components/card-list";
import { type Column, TableColumns } from "@/components/table-columns";
import { ScrollTable } from "@/components/ui/scroll-table";
import { Table } from "@/components/ui/table";

/**
 * ResponsiveTable shows rows as cards on a phone (a list named listLabel, one card per row) and
 * as a table from md up. The table is named by the element labelledBy points at, or, given
 * tableLabel, is a ScrollTable whose scroll box carries that name.
 */
export function ResponsiveTable<T>({
  rows,
  rowKey,
  listLabel,
  card,
  columns,
  labelledBy,
  tableLabel,
}: {
  rows: readonly T[];
  rowKey: (row: T) => string;
  listLabel: string;
  card: (row: T) => React.ReactNode;
  columns: readonly Column<T>[];
  labelledBy?: string;
  tableLabel?: string;
}) {
  const parts = <TableColumns columns={columns} rows={rows} rowKey={rowKey} />;
  return (
    <>
      <CardList label={listLabel} rows={rows} rowKey={rowKey} className="grid-cols-1 md:hidden" itemClassName="grid min-w-0 grid-cols-1 gap-2 rounded-lg border p-3" item={card} />
      <div className="hidden md:block">
        {tableLabel ? <ScrollTable label={tableLabel}>{parts}</ScrollTable> : <Table aria-labelledby={labelledBy}>{parts}</Table>}
      </div>
    </>
  );
}
