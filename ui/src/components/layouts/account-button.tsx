import type * as React from "react";
import { type User, initials } from "@/lib/user";

/**
 * AccountButton is the round button with the user's initials in the header: the account menu's
 * trigger (account-menu.tsx), and the same button while that menu's chunk loads.
 */
export function AccountButton({ user, describedBy, ...props }: { user: User; describedBy: string } & React.ComponentProps<"button">) {
  return (
    <button
      type="button"
      aria-describedby={describedBy}
      className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      {...props}
    >
      {initials(user)}
    </button>
  );
}
