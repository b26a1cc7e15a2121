import { Collapsible as CollapsiblePrimitive } from "radix-ui";
import * as React from "react";

/** Collapsible is a disclosure root (Radix Collapsible): a trigger shows and hides its content. */
export function Collapsible(props: React.ComponentProps<typeof CollapsiblePrimitive.Root>) {
  return <CollapsiblePrimitive.Root data-slot="collapsible" {...props} />;
}

/** CollapsibleTrigger is the button that toggles its Collapsible (aria-expanded, aria-controls). */
export function CollapsibleTrigger(props: React.ComponentProps<typeof CollapsiblePrimitive.Trigger>) {
  return <CollapsiblePrimitive.Trigger data-slot="collapsible-trigger" {...props} />;
}

/** CollapsibleContent is what its Collapsible shows when open (unmounted when closed). */
export function CollapsibleContent(props: React.ComponentProps<typeof CollapsiblePrimitive.Content>) {
  return <CollapsiblePrimitive.Content data-slot="collapsible-content" {...props} />;
}
