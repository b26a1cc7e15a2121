import * as React from "react";
import { cn } from "@/lib/utils";

/**
 * ScrollTable is a data table whose horizontal scroll box can take keyboard focus (axe
 * 'scrollable-region-focusable'): use it for tables that may be wider than a phone.
 * label names the scroll box for screen readers. Rows and cells are the Table* parts.
 */
export function ScrollTable({ label, className, ...props }: React.ComponentProps<"table"> & { label: string }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="relative w-full overflow-x-auto rounded-md focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
    >
      <table className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
}
