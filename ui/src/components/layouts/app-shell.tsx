import * as React from "react";
import { AdminTabBar } from "@/components/layouts/admin-tab-bar";
import { AppHeader } from "@/components/layouts/app-header";
import { useFocusAfterNavigation } from "@/components/layouts/focus-after-navigation";
import { loadable, useLoadable } from "@/lib/loadable";
import { isOffline, useConnectivity } from "@/lib/connectivity";
import type { User } from "@/lib/user";
import { isAdminRole, isLiaisonRole } from "@/lib/user";

// The field bar (offline banner, new-version prompt, the service worker, the offline read
// cache; below them the queue the app gives, which runs the outbox) is its own chunk, loaded once
// the first screen is shown (lib/first-screen-shown.ts): online with nothing queued it shows
// nothing, and on a phone network its chunks would hold the first screen's back. Offline the
// service worker answers it at once (a Loadable: shown as soon as it is in, lib/loadable.tsx).
const fieldBar = loadable(() => import("@/components/layouts/field-bar").then((m) => m.FieldBar));

function LoadedFieldBar({ user, queue }: { user: User; queue?: React.ReactNode }) {
  const FieldBar = useLoadable(fieldBar, { afterFirstScreen: true });
  return FieldBar ? <FieldBar user={user}>{queue}</FieldBar> : null;
}

/**
 * AppShell frames a signed-in screen: header, the field bar, the admin tab bar for admin
 * roles, content; queue is the outbox's queue, shown in the field bar. Offline, admin and liaison screens are read-only (their controls are
 * disabled): only the driver's actions queue (DESIGN.md §12). A navigation that removed the
 * focused control gives the focus to the new screen's heading (focus-after-navigation.ts).
 */
export function AppShell({ user, queue, children }: { user: User; queue?: React.ReactNode; children: React.ReactNode }) {
  const readOnly = isOffline(useConnectivity()) && (isAdminRole(user.role) || isLiaisonRole(user.role));
  const main = React.useRef<HTMLElement>(null);
  useFocusAfterNavigation(main);
  return (
    <div className="flex min-h-dvh flex-col">
      <AppHeader user={user} />
      <LoadedFieldBar user={user} queue={queue} />
      {isAdminRole(user.role) && <AdminTabBar role={user.role} />}
      <main ref={main} className="mx-auto w-full max-w-7xl min-w-0 flex-1 px-4 py-6">
        {/* always the same element, so going offline never remounts the screen */}
        <fieldset disabled={readOnly} className="contents">
          {children}
        </fieldset>
      </main>
    </div>
  );
}

/** PageHeader is a screen's h1 with an optional description. */
export function PageHeader({ title, description, children }: { title: string; description?: string; children?: React.ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {children}
    </div>
  );
}
