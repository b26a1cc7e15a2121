import * as React from "react";
import { ScrollTable } from "@/components/ui/scroll-table";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

/** Column is one column of a ResponsiveTable's desktop table: its header and its cell for a row. */
export type Column<T> = {
  head: React.ReactNode;
  cell: (row: T) => React.ReactNode;
  /** headClassName styles the header cell. */
  headClassName?: string;
  /** className styles each body cell. */
  className?: string;
};

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
  const parts = (
    <>
      <TableHeader>
        <TableRow>
          {columns.map((c, i) => (
            <TableHead key={i} className={c.headClassName}>
              {c.head}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={rowKey(r)}>
            {columns.map((c, i) => (
              <TableCell key={i} className={c.className}>
                {c.cell(r)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </>
  );
  return (
    <>
      <ul className="grid grid-cols-1 gap-3 md:hidden" aria-label={listLabel}>
        {rows.map((r) => (
          <li key={rowKey(r)} className="grid min-w-0 grid-cols-1 gap-2 rounded-lg border p-3">
            {card(r)}
          </li>
        ))}
      </ul>
      <div className="hidden md:block">
        {tableLabel ? <ScrollTable label={tableLabel}>{parts}</ScrollTable> : <Table aria-labelledby={labelledBy}>{parts}</Table>}
      </div>
    </>
  );
}
