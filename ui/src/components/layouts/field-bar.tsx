import { useQueryClient } from "@tanstack/react-query";
import { CloudOffIcon, RefreshCwIcon } from "lucide-react";
import * as React from "react";
import { useLocation } from "react-router";
import { Button } from "@/components/ui/button";
import { applyUpdate, checkForUpdate, hasHalfFilledForm, startServiceWorker, useUpdateAvailable } from "@/lib/pwa";
import { formatTime } from "@/lib/format";
import { invalidate } from "@/lib/invalidation";
import { persistReads } from "@/lib/offline-cache";
import { isOffline, useConnectivity } from "@/lib/connectivity";
import type { User } from "@/lib/user";

// The field bar (DESIGN.md §12, issue 27): under the header of every signed-in screen. It
// registers the service worker, keeps the offline read cache and shows the offline banner, the
// new-version prompt and, below them, its children: the outbox's queue (features/outbox,
// given by app/routes/signed-in.tsx). Its own chunk: the sign-in screen never loads it.

/** offlineBanner is the banner's text: "Offline — figures from 2:32 PM", in the operation's time zone. */
export function offlineBanner(cachedSince: number | null): string {
  return cachedSince === null ? "Offline" : `Offline — figures from ${formatTime(new Date(cachedSince))}`;
}

/** FieldBar: see the file comment. */
export function FieldBar({ user, children }: { user: User; children?: React.ReactNode }) {
  const qc = useQueryClient();
  const { pathname } = useLocation();

  React.useEffect(() => persistReads(qc, user.id), [qc, user.id]);
  React.useEffect(() => {
    // after the first screen: the precache downloads while the user reads it
    const idle = window.requestIdleCallback ?? ((f: () => void) => setTimeout(f, 1000));
    idle(() => startServiceWorker());
  }, []);
  React.useEffect(() => void checkForUpdate(), [pathname]);
  React.useEffect(() => {
    const online = () => void invalidate(qc, "everything");
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [qc]);

  return (
    <div className="mx-auto w-full max-w-7xl space-y-2 px-4 pt-2 empty:hidden">
      <UpdatePrompt />
      <OfflineBanner />
      {children}
    </div>
  );
}

function UpdatePrompt() {
  const available = useUpdateAvailable();
  const [warn, setWarn] = React.useState(false);
  if (!available) return null;
  return (
    <div role="status" className="flex flex-wrap items-center gap-2 rounded-md border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-900">
      <RefreshCwIcon aria-hidden className="size-4" />
      <span className="flex-1">A new version is available</span>
      {warn && <span className="w-full text-xs">Finish or clear the form you are filling in first, or tap Reload again.</span>}
      <Button
        size="sm"
        onClick={() => {
          if (!warn && hasHalfFilledForm()) setWarn(true);
          else applyUpdate();
        }}
      >
        Reload
      </Button>
    </div>
  );
}

function OfflineBanner() {
  const s = useConnectivity();
  if (!isOffline(s)) return null;
  return (
    <div role="status" className="flex items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900">
      <CloudOffIcon aria-hidden className="size-4" />
      {offlineBanner(s.cachedSince)}
    </div>
  );
}
