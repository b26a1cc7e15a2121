import * as React from "react";
import { AdminTabBar } from "@/components/layouts/admin-tab-bar";
import { AppHeader } from "@/components/layouts/app-header";
import type { User } from "@/lib/user";
import { isAdminRole } from "@/lib/user";

/** AppShell frames a signed-in screen: header, the admin tab bar for admin roles, content. */
export function AppShell({ user, children }: { user: User; children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <AppHeader user={user} />
      {isAdminRole(user.role) && <AdminTabBar role={user.role} />}
      <main className="mx-auto w-full max-w-7xl min-w-0 flex-1 px-4 py-6">{children}</main>
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
