import { AlertDialog as AlertDialogPrimitive } from "radix-ui";
import * as React from "react";
import { buttonVariants } from "@/components/ui/button";
import { dialogPanel } from "@/components/ui/dialog";
import { useReturnFocus } from "@/components/ui/return-focus";
import { cn } from "@/lib/utils";

/** AlertDialog is a confirmation dialog root (role alertdialog). */
export const AlertDialog = AlertDialogPrimitive.Root;
/** AlertDialogTrigger opens its AlertDialog. */
export const AlertDialogTrigger = AlertDialogPrimitive.Trigger;

/** AlertDialogContent is the confirmation panel with overlay. */
export function AlertDialogContent({ className, onOpenAutoFocus, onCloseAutoFocus, ...props }: React.ComponentProps<typeof AlertDialogPrimitive.Content>) {
  const returnFocus = useReturnFocus({ onOpenAutoFocus, onCloseAutoFocus });
  return (
    <AlertDialogPrimitive.Portal>
      <AlertDialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
      <AlertDialogPrimitive.Content
        className={cn(dialogPanel, className)}
        {...returnFocus}
        {...props}
      />
    </AlertDialogPrimitive.Portal>
  );
}

/** AlertDialogHeader and AlertDialogFooter are the Dialog's: the same title block and button row. */
export { DialogHeader as AlertDialogHeader, DialogFooter as AlertDialogFooter } from "@/components/ui/dialog";

/** AlertDialogTitle names the confirmation. */
export function AlertDialogTitle({ className, ...props }: React.ComponentProps<typeof AlertDialogPrimitive.Title>) {
  return <AlertDialogPrimitive.Title className={cn("text-lg font-semibold", className)} {...props} />;
}

/** AlertDialogDescription explains what is confirmed. */
export function AlertDialogDescription({ className, ...props }: React.ComponentProps<typeof AlertDialogPrimitive.Description>) {
  return <AlertDialogPrimitive.Description className={cn("text-sm text-muted-foreground", className)} {...props} />;
}

/** AlertDialogAction confirms (closes the dialog). */
export function AlertDialogAction({ className, ...props }: React.ComponentProps<typeof AlertDialogPrimitive.Action>) {
  return <AlertDialogPrimitive.Action className={cn(buttonVariants(), className)} {...props} />;
}

/** AlertDialogCancel dismisses (closes the dialog). */
export function AlertDialogCancel({ className, ...props }: React.ComponentProps<typeof AlertDialogPrimitive.Cancel>) {
  return <AlertDialogPrimitive.Cancel className={cn(buttonVariants({ variant: "outline" }), className)} {...props} />;
}
