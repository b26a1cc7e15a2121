import { BatteryChargingIcon, BatteryIcon, KeyRoundIcon, LogOutIcon } from "lucide-react";
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
 * AppHeader is the bar on every signed-in screen: battery icon, product title,
 * 'Auto-updating every 60s', the user's initials (a menu with Change Password), display
 * name and role (in the menu only on phones), and the logout button.
 */
export function AppHeader({ user }: { user: User }) {
  const logout = useLogout();
  const name = displayName(user);
  const role = roleLabel(user.role);
  const hint = React.useId();
  return (
    <header className="border-b bg-background">
      <div className="mx-auto flex max-w-7xl items-center gap-2 px-4 py-3 sm:gap-3">
        <BatteryChargingIcon aria-hidden className="size-7 shrink-0 text-primary" />
        <div className="min-w-0 flex-1">
          {/* the product's title, not a heading: each screen's h1 names the screen */}
          <span className="block text-lg leading-tight font-bold">SwapBay</span>
          <span className="block text-xs text-muted-foreground">Auto-updating every 60s</span>
        </div>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <button
              type="button"
              aria-describedby={hint}
              className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              {initials(user)}
            </button>
          </DropdownMenuTrigger>
          {/* named by the initials it shows (SC 2.5.3); whose menu it is, is its description */}
          <Hint id={hint}>Account menu for {name}</Hint>
          <DropdownMenuContent align="end" className="w-56">
            <DropdownMenuLabel>
              <p className="truncate">{name}</p>
              <p className="text-xs font-normal text-muted-foreground">{role}</p>
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
        <div className="hidden min-w-0 text-right sm:block">
          <p className="max-w-48 truncate text-sm font-medium">{name}</p>
          <p className="text-xs text-muted-foreground">{role}</p>
        </div>
        <Button variant="outline" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending} aria-label="Logout">
          <LogOutIcon />
          <span className="hidden sm:inline">Logout</span>
        </Button>
      </div>
    </header>
  );
}
