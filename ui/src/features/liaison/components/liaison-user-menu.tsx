import { ChevronDownIcon } from "lucide-react";
import * as React from "react";
import { UserMenu } from "@/components/layouts/account-menu";
import { Button } from "@/components/ui/button";
import { Hint } from "@/components/ui/hint";
import { paths } from "@/config/paths";
import { type User, displayName, initials } from "@/lib/user";

/**
 * LiaisonUserMenu is the liaison's user menu: the UserMenu (name and 'Corporate Liaison',
 * Change Password, Logout) opened by a button with the liaison's initials and name. Logout
 * goes to / (spec part 1 §7), where the sign-in screen shows.
 */
export function LiaisonUserMenu({ user }: { user: User }) {
  const hint = React.useId();
  // named by the name it shows (SC 2.5.3); that it is the user menu is its description
  return (
    <>
      <UserMenu
        user={user}
        logoutTo={paths.home.path}
        trigger={
          <Button variant="outline" className="gap-2" aria-describedby={hint}>
            <span
              aria-hidden
              className="flex size-6 items-center justify-center rounded-full bg-primary text-[11px] font-semibold text-primary-foreground"
            >
              {initials(user)}
            </span>
            <span className="max-w-40 truncate">{displayName(user)}</span>
            <ChevronDownIcon aria-hidden />
          </Button>
        }
      />
      <Hint id={hint}>User menu</Hint>
    </>
  );
}
