import { ChevronDownIcon, KeyRoundIcon, LogOutIcon } from "lucide-react";
import { Link } from "react-router";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Hint } from "@/components/ui/hint";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { paths } from "@/config/paths";
import { useLogout } from "@/lib/auth";
import { type User, displayName, initials, roleLabel } from "@/lib/user";

/**
 * LiaisonUserMenu is the liaison's user menu: name and 'Corporate Liaison', Change Password
 * and Logout. Logout goes to / (spec part 1 §7), where the sign-in screen shows.
 */
export function LiaisonUserMenu({ user }: { user: User }) {
  const logout = useLogout(paths.home.path);
  const hint = React.useId();
  // named by the name it shows (SC 2.5.3); that it is the user menu is its description
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
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
      </DropdownMenuTrigger>
      <Hint id={hint}>User menu</Hint>
      <DropdownMenuContent align="end" className="w-56">
        <DropdownMenuLabel>
          <span className="block truncate">{displayName(user)}</span>
          <span className="block text-xs font-normal text-muted-foreground">{roleLabel(user.role)}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to={paths.changePassword.path}>
            <KeyRoundIcon aria-hidden /> Change Password
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => logout.mutate()} disabled={logout.isPending}>
          <LogOutIcon aria-hidden /> Logout
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
