import { Slot } from "radix-ui";
import * as React from "react";
import { cn } from "@/lib/utils";

/** Card is a bordered panel; compose with CardHeader, CardTitle, CardDescription, CardContent, CardFooter. */
export function Card({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="card"
      className={cn("flex flex-col gap-6 rounded-xl border bg-card py-6 text-card-foreground shadow-sm", className)}
      {...props}
    />
  );
}

/** CardHeader holds a card's title and description. */
export function CardHeader({ className, ...props }: React.ComponentProps<"div">) {
  return <div data-slot="card-header" className={cn("flex flex-col gap-1.5 px-6", className)} {...props} />;
}

/** CardTitle is a card's heading: an h2, or with asChild the heading element it wraps (e.g. a page's h1). */
export function CardTitle({ className, asChild = false, ...props }: React.ComponentProps<"h2"> & { asChild?: boolean }) {
  const Comp = asChild ? Slot.Root : "h2";
  return <Comp data-slot="card-title" className={cn("leading-none font-semibold", className)} {...props} />;
}

/** CardDescription is a card's muted subtitle. */
export function CardDescription({ className, ...props }: React.ComponentProps<"p">) {
  return <p data-slot="card-description" className={cn("text-sm text-muted-foreground", className)} {...props} />;
}

/** CardContent is a card's body. */
export function CardContent({ className, ...props }: React.ComponentProps<"div">) {
  return <div data-slot="card-content" className={cn("px-6", className)} {...props} />;
}

/** CardFooter is a card's action row. */
export function CardFooter({ className, ...props }: React.ComponentProps<"div">) {
  return <div data-slot="card-footer" className={cn("flex items-center px-6", className)} {...props} />;
}
