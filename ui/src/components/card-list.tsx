import type * as React from "react";
import { cn } from "@/lib/utils";

/**
 * CardList is a list named label with one item per row (keyed by rowKey), spaced as a column
 * of cards; className adds to the list's layout, itemClassName styles each item.
 */
export function CardList<T>({
  label,
  rows,
  rowKey,
  className,
  itemClassName,
  item,
}: {
  label: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  className?: string;
  itemClassName: string;
  item: (row: T) => React.ReactNode;
}) {
  return (
    <ul className={cn("grid gap-3", className)} aria-label={label}>
      {rows.map((r) => (
        <li key={rowKey(r)} className={itemClassName}>
          {item(r)}
        </li>
      ))}
    </ul>
  );
}
