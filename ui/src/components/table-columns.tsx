import type * as React from "react";
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

/** Column is one column of a table: its header and its cell for a row. */
export type Column<T> = {
  head: React.ReactNode;
  cell: (row: T) => React.ReactNode;
  /** headClassName styles the header cell. */
  headClassName?: string;
  /** className styles each body cell (or, a function, the cell of that row). */
  className?: string | ((row: T) => string);
};

/**
 * TableColumns is the inside of a Table or ScrollTable declared by its columns: the header row,
 * then one body row per row (keyed by rowKey, given the row and its index).
 */
export function TableColumns<T>({ columns, rows, rowKey }: { columns: readonly Column<T>[]; rows: readonly T[]; rowKey: (row: T, index: number) => string }) {
  return (
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
        {rows.map((r, n) => (
          <TableRow key={rowKey(r, n)}>
            {columns.map((c, i) => (
              <TableCell key={i} className={typeof c.className === "function" ? c.className(r) : c.className}>
                {c.cell(r)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </>
  );
}
