import { BatteryIcon, KeyRoundIcon, LogOutIcon } from "lucide-react";
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

/**
 * AccountMenu is the header's account menu (its own chunk: app-header.tsx): the user's name and
 * role, My packs for a driver, Change Password and Logout. defaultOpen opens it as it mounts
 * (the button was tapped while the chunk loaded).
 */
export function AccountMenu({ user, describedBy, defaultOpen }: { user: User; describedBy: string; defaultOpen?: boolean }) {
  const logout = useLogout();
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <AccountButton user={user} describedBy={describedBy} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        <DropdownMenuLabel>
          <p className="truncate">{displayName(user)}</p>
          <p className="text-xs font-normal text-muted-foreground">{roleLabel(user.role)}</p>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {user.role === "driver" && (
          <DropdownMenuItem asChild>
            <Link to={paths.packs.path}>
              <BatteryIcon /> My packs
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuItem asChild>
          <Link to={paths.changePassword.path}>
            <KeyRoundIcon /> Change Password
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => logout.mutate()}>
          <LogOutIcon /> Logout
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
