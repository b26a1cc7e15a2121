import * as React from "react";
import { cn } from "@/lib/utils";

/** Centered centres its children on the whole screen (loading, error and blocking screens). */
export function Centered({ className, ...props }: React.ComponentProps<"main">) {
  return <main className={cn("flex min-h-dvh items-center justify-center p-4", className)} {...props} />;
}
