import { BatteryChargingIcon, KeyRoundIcon, LogOutIcon } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { paths } from "@/config/paths";
import { useLogout } from "@/lib/auth";
import { type User, displayName, initials, roleLabel } from "@/lib/user";

/**
 * AppHeader is the bar on every signed-in screen: battery icon, product title,
 * 'Auto-updating every 60s', the user's initials, display name and role, and logout.
 */
export function AppHeader({ user }: { user: User }) {
  const logout = useLogout();
  return (
    <header className="border-b bg-background">
      <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-3">
        <BatteryChargingIcon aria-hidden className="size-7 shrink-0 text-primary" />
        <div className="min-w-0 flex-1">
          <p className="text-lg leading-tight font-bold">SwapBay</p>
          <p className="text-xs text-muted-foreground">Auto-updating every 60s</p>
        </div>
        <div className="flex items-center gap-2">
          <span
            aria-hidden
            className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
          >
            {initials(user)}
          </span>
          <div className="hidden min-w-0 text-right sm:block">
            <p className="max-w-48 truncate text-sm font-medium">{displayName(user)}</p>
            <p className="text-xs text-muted-foreground">{roleLabel(user.role)}</p>
          </div>
          <span className="sr-only sm:hidden">
            {displayName(user)}, {roleLabel(user.role)}
          </span>
          <Tooltip>
            <TooltipTrigger asChild>
              <Button asChild variant="ghost" size="icon">
                <Link to={paths.changePassword.path} aria-label="Change Password">
                  <KeyRoundIcon />
                </Link>
              </Button>
            </TooltipTrigger>
            <TooltipContent>Change Password</TooltipContent>
          </Tooltip>
          <Button variant="outline" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending} aria-label="Logout">
            <LogOutIcon />
            <span className="hidden sm:inline">Logout</span>
          </Button>
        </div>
      </div>
    </header>
  );
}
