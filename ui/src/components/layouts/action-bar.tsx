import type * as React from "react";

/**
 * ActionBar is a page's main actions, fixed to the bottom of the screen (stocktake, send and
 * receive between cities) so they stay in reach while the list above grows. While one is shown
 * the document keeps a focused field above it, not under it (index.css: scroll-padding-bottom),
 * so a keyboard user Tabbing down the page always sees where the focus is.
 */
export function ActionBar({ children }: { children: React.ReactNode }) {
  return (
    <div data-action-bar className="fixed inset-x-0 bottom-0 z-10 border-t bg-background/95 p-3 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="flex items-center justify-end gap-2 sm:px-1">{children}</div>
    </div>
  );
}
