import { useQuery } from "@tanstack/react-query";
import { AlertTriangleIcon, Building2Icon, LogOutIcon } from "lucide-react";
import * as React from "react";
import { useLocation } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { TabNav } from "@/components/layouts/tab-nav";
import { type City, type HqUser, citiesQueryOptions, useLogout } from "@/hq/api";
import { bannerText } from "@/hq/format";
import { HQ_TABS, activeHqTab } from "@/hq/paths";

/** roleWords names a head-office role. */
export function roleWords(role: string): string {
  return role === "hq_admin" ? "Head office admin" : role === "hq_viewer" ? "Head office viewer" : role;
}

/**
 * HqShell frames every signed-in head-office screen: the header (title, who is signed in, Sign
 * out), the navigation (tabs on wide screens, a menu on phones), the banner naming every city
 * whose copy is behind, restoring or failed, then the screen.
 */
export function HqShell({ user, children }: { user: HqUser; children: React.ReactNode }) {
  const logout = useLogout();
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b bg-background">
        <div className="mx-auto flex max-w-7xl items-center gap-2 px-4 py-3 sm:gap-3">
          <Building2Icon aria-hidden className="size-7 shrink-0 text-primary" />
          <div className="min-w-0 flex-1">
            <span className="block text-lg leading-tight font-bold">SwapBay Head Office</span>
            <span className="block truncate text-xs text-muted-foreground">
              {user.name || user.email} · {roleWords(user.role)}
            </span>
          </div>
          <Button variant="outline" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
            <LogOutIcon aria-hidden />
            Sign out
          </Button>
        </div>
      </header>
      <HqNav />
      <BehindBanner />
      <main className="mx-auto w-full max-w-7xl min-w-0 flex-1 px-4 py-6">{children}</main>
    </div>
  );
}

function HqNav() {
  const { pathname } = useLocation();
  return <TabNav label="Head office" tabs={HQ_TABS} current={activeHqTab(pathname)} />;
}

/** flaggedLines is the banner's lines: one per city whose copy is flagged. */
export function flaggedLines(cities: City[] | undefined): { id: string; text: string }[] {
  return (cities ?? []).map((c) => ({ id: c.id, text: bannerText(c) })).filter((l) => l.text !== "");
}

/** BehindBanner names, on every screen, each city whose figures are not current (GET /api/hq/cities, every 30 s). */
export function BehindBanner() {
  const cities = useQuery({ ...citiesQueryOptions, meta: { silentError: true } });
  const lines = flaggedLines(cities.data);
  if (lines.length === 0) return null;
  return (
    <div role="status" className="border-b border-amber-300 bg-amber-50 text-amber-950 dark:bg-amber-950 dark:text-amber-50">
      <ul className="mx-auto grid max-w-7xl gap-1 px-4 py-2 text-sm">
        {lines.map((l) => (
          <li key={l.id} className="flex items-start gap-2">
            <AlertTriangleIcon aria-hidden className="mt-0.5 size-4 shrink-0" />
            <span>{l.text}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** HqPageHeader is a screen's h1 with an optional description and actions. */
export function HqPageHeader({ title, description, children }: { title: string; description?: React.ReactNode; children?: React.ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {children}
    </div>
  );
}

/**
 * HqCard is a screen's card titled by an h2, with an optional description above its content;
 * region makes it a landmark named by that title.
 */
export function HqCard({
  title,
  description,
  region,
  contentClassName,
  children,
}: {
  title: React.ReactNode;
  description?: React.ReactNode;
  region?: boolean;
  contentClassName?: string;
  children: React.ReactNode;
}) {
  const id = React.useId();
  const titleId = region ? `${id}-t` : undefined;
  return (
    <Card role={region ? "region" : undefined} aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} asChild>
          <h2>{title}</h2>
        </CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
