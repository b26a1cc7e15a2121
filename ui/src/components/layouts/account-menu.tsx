import { BatteryIcon, KeyRoundIcon, LogOutIcon } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { AccountButton } from "@/components/layouts/account-button";
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
import { type User, displayName, roleLabel } from "@/lib/user";

/** UserMenuProps: whose menu, the button that opens it, where Logout goes, whether it opens as it mounts. */
export type UserMenuProps = {
  user: User;
  /** trigger is the button that opens the menu (it gets the menu's trigger props) */
  trigger: React.ReactNode;
  /** logoutTo is where Logout goes (the default: the sign-in screen) */
  logoutTo?: string;
  defaultOpen?: boolean;
};

/**
 * UserMenu is the one user menu (the header's account menu, the liaison's user menu): the
 * user's name and role, My packs for a driver, Change Password and Logout (disabled while it
 * runs).
 */
export function UserMenu({ user, trigger, logoutTo, defaultOpen }: UserMenuProps) {
  const logout = useLogout(logoutTo);
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        <DropdownMenuLabel>
          <p className="truncate">{displayName(user)}</p>
          <p className="text-xs font-normal text-muted-foreground">{roleLabel(user.role)}</p>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {user.role === "driver" && (
          <DropdownMenuItem asChild>
            <Link to={paths.packs.path}>
              <BatteryIcon aria-hidden /> My packs
            </Link>
          </DropdownMenuItem>
        )}
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

/**
 * AccountMenu is the header's account menu (its own chunk: app-header.tsx): the UserMenu
 * opened by the round initials button. defaultOpen opens it as it mounts (the button was
 * tapped while the chunk loaded).
 */
export function AccountMenu({ user, describedBy, defaultOpen }: { user: User; describedBy: string; defaultOpen?: boolean }) {
  return <UserMenu user={user} defaultOpen={defaultOpen} trigger={<AccountButton user={user} describedBy={describedBy} />} />;
}
