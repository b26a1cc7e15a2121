import { ChevronDownIcon } from "lucide-react";
import { Slot } from "radix-ui";
import * as React from "react";
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from "@/components/ui/collapsible";
import { useRememberedOpen } from "@/hooks/use-remembered-open";
import { cn } from "@/lib/utils";

/** CardCollapse is the open state of the CollapsibleCard a card sits in (null: not collapsible). */
const CardCollapse = React.createContext<{ open: boolean } | null>(null);

/**
 * CollapsibleCard makes the one card inside it collapsible, without changing the card's
 * component: its CardTitle becomes the toggle (a button with aria-expanded inside the heading,
 * the title as its label), its CardDescription, CardContent and CardFooter show only while
 * open. The state is remembered on this device per id (useRememberedOpen); default open.
 * Cards inside the content are not affected.
 */
export function CollapsibleCard({ id, children }: { id: string; children: React.ReactNode }) {
  const [open, setOpen] = useRememberedOpen(id);
  return (
    <Collapsible open={open} onOpenChange={setOpen}>
      <CardCollapse.Provider value={{ open }}>{children}</CardCollapse.Provider>
    </Collapsible>
  );
}

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
export function CardTitle({ className, asChild = false, children, ...props }: React.ComponentProps<"h2"> & { asChild?: boolean }) {
  const collapse = React.useContext(CardCollapse);
  const Comp = asChild ? Slot.Root : "h2";
  if (collapse) {
    return (
      <h2 data-slot="card-title" className="leading-none font-semibold" {...props}>
        <CollapsibleTrigger
          data-section-toggle=""
          className={cn(
            "group -my-2 flex min-h-10 w-full cursor-pointer items-center gap-2 rounded-md py-2 text-left focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none",
            className,
          )}
        >
          {children}
          <ChevronDownIcon aria-hidden className="ml-auto size-5 shrink-0 text-muted-foreground transition-transform group-data-[state=closed]:-rotate-90" />
        </CollapsibleTrigger>
      </h2>
    );
  }
  return (
    <Comp data-slot="card-title" className={cn("leading-none font-semibold", className)} {...props}>
      {children}
    </Comp>
  );
}

/** CardDescription is a card's muted subtitle. */
export function CardDescription({ className, ...props }: React.ComponentProps<"p">) {
  if (React.useContext(CardCollapse)?.open === false) return null;
  return <p data-slot="card-description" className={cn("text-sm text-muted-foreground", className)} {...props} />;
}

/** CardContent is a card's body. */
export function CardContent({ className, children, ...props }: React.ComponentProps<"div">) {
  const collapse = React.useContext(CardCollapse);
  // inside a CollapsibleCard the body is the collapsible part, and cards within it are not collapsed
  const body = (
    <div data-slot="card-content" className={cn("px-6", className)} {...props}>
      {collapse ? <CardCollapse.Provider value={null}>{children}</CardCollapse.Provider> : children}
    </div>
  );
  return collapse ? <CollapsibleContent asChild>{body}</CollapsibleContent> : body;
}

/** CardFooter is a card's action row. */
export function CardFooter({ className, ...props }: React.ComponentProps<"div">) {
  if (React.useContext(CardCollapse)?.open === false) return null;
  return <div data-slot="card-footer" className={cn("flex items-center px-6", className)} {...props} />;
}
