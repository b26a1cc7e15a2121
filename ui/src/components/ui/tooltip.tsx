import { Tooltip as TooltipPrimitive } from "radix-ui";
import * as React from "react";
import { cn } from "@/lib/utils";

/** TooltipProvider sets the app's tooltip timing (spec: 700 ms delay, 300 ms skip window). */
export function TooltipProvider({ delayDuration = 700, skipDelayDuration = 300, ...props }: React.ComponentProps<typeof TooltipPrimitive.Provider>) {
  return <TooltipPrimitive.Provider delayDuration={delayDuration} skipDelayDuration={skipDelayDuration} {...props} />;
}

/** Tooltip is one tooltip root. */
export const Tooltip = TooltipPrimitive.Root;
/** TooltipTrigger is the element the tooltip describes. */
export const TooltipTrigger = TooltipPrimitive.Trigger;

/** TooltipContent is the tooltip bubble. */
export function TooltipContent({ className, sideOffset = 4, ...props }: React.ComponentProps<typeof TooltipPrimitive.Content>) {
  return (
    <TooltipPrimitive.Portal>
      <TooltipPrimitive.Content
        sideOffset={sideOffset}
        className={cn("z-50 w-fit rounded-md bg-foreground px-3 py-1.5 text-xs text-balance text-background", className)}
        {...props}
      />
    </TooltipPrimitive.Portal>
  );
}
