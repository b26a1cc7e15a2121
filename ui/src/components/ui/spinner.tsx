import { Loader2Icon } from "lucide-react";
import * as React from "react";
import { cn } from "@/lib/utils";

/** Spinner is a rotating loader (role status, named by its label). */
export function Spinner({ className, label = "Loading", ...props }: React.ComponentProps<"svg"> & { label?: string }) {
  return <Loader2Icon role="status" aria-label={label} className={cn("size-4 animate-spin", className)} {...props} />;
}
