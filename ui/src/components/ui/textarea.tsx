import * as React from "react";
import { cn } from "@/lib/utils";

/**
 * Textarea is a multi-line text input. Focused from out of view (a Tab to a box on the screen's
 * edge), it scrolls itself whole into view: Chromium scrolls a focused textarea only as far as
 * its caret line, which left a keyboard user a sliver of the box.
 */
export function Textarea({ className, onFocus, ...props }: React.ComponentProps<"textarea">) {
  return (
    <textarea
      data-slot="textarea"
      className={cn(
        "flex min-h-16 w-full scroll-my-4 rounded-md border border-input bg-transparent px-3 py-2 text-base shadow-xs transition-[color,box-shadow] outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive md:text-sm",
        className,
      )}
      onFocus={(e) => {
        onFocus?.(e);
        showWhole(e.currentTarget);
      }}
      {...props}
    />
  );
}

/** showWhole scrolls el the least that shows all of it, when it is cut off and fits the screen. */
function showWhole(el: HTMLTextAreaElement) {
  requestAnimationFrame(() => {
    const r = el.getBoundingClientRect();
    if ((r.top < 0 || r.bottom > window.innerHeight) && r.height < window.innerHeight) el.scrollIntoView({ block: "nearest" });
  });
}
