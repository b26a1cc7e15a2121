import { BatteryChargingIcon, LogOutIcon } from "lucide-react";
import * as React from "react";
import { AccountButton } from "@/components/layouts/account-button";
import { Button } from "@/components/ui/button";
import { Hint } from "@/components/ui/hint";
import { useLogout } from "@/lib/auth";
import { Lazy, loadable } from "@/lib/loadable";
import { type User, displayName, roleLabel } from "@/lib/user";

// The account menu (Radix menu, popper, focus scope: some 20 KB) is its own chunk, loaded once
// the first screen is shown (lib/first-screen-shown.ts); until then its button looks the same,
// and a tap on it opens the menu as soon as it is in.
const accountMenu = loadable(() => import("@/components/layouts/account-menu").then((m) => m.AccountMenu));

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
  const [openOnLoad, setOpenOnLoad] = React.useState(false);
  return (
    <header className="border-b bg-background">
      <div className="mx-auto flex max-w-7xl items-center gap-2 px-4 py-3 sm:gap-3">
        <BatteryChargingIcon aria-hidden className="size-7 shrink-0 text-primary" />
        <div className="min-w-0 flex-1">
          {/* the product's title, not a heading: each screen's h1 names the screen */}
          <span className="block text-lg leading-tight font-bold">SwapBay</span>
          <span className="block text-xs text-muted-foreground">Auto-updating every 60s</span>
        </div>
        <Lazy
          of={accountMenu}
          afterFirstScreen
          fallback={<AccountButton user={user} describedBy={hint} onClick={() => setOpenOnLoad(true)} onPointerEnter={() => void accountMenu.preload()} />}
          user={user}
          describedBy={hint}
          defaultOpen={openOnLoad}
        />
        {/* named by the initials it shows (SC 2.5.3); whose menu it is, is its description */}
        <Hint id={hint}>Account menu for {name}</Hint>
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
