// Head office's app (hq.html → hq/main.tsx): its own query client and route table over the
// city's components. Every screen needs a signed-in head-office user: signed out, every path
// shows the sign-in form and, once signed in, the screen that was asked for.
import { QueryClientProvider } from "@tanstack/react-query";
import * as React from "react";
import { Outlet, RouterProvider, createBrowserRouter, type RouteObject } from "react-router";
import { ErrorBoundary } from "@/components/errors/error-boundary";
import { LoadingScreen } from "@/components/feedback/loading-screen";
import { useToast } from "@/hooks/use-toast";
import { Lazy, loadable } from "@/lib/loadable";
import { useMe } from "@/hq/api";
import { hqPaths } from "@/hq/paths";
import { makeHqQueryClient } from "@/hq/query-client";
import { HqShell } from "@/hq/shell";
import { SignInPage } from "@/hq/screens/sign-in";

const toaster = loadable(() => import("@/components/ui/toaster").then((m) => m.Toaster));

/** LazyToaster mounts the Toaster once any toast has been pushed (as the city's provider does). */
function LazyToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = React.useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  return needed ? <Lazy of={toaster} /> : null;
}

/** HqGate shows the sign-in form to a guest, else the shell around the screen. */
function HqGate() {
  const me = useMe();
  if (me.isPending) return <LoadingScreen />;
  if (me.isError) {
    return (
      <main className="mx-auto max-w-md p-6 text-center">
        <h1 className="text-xl font-semibold">Head office is not answering</h1>
        <p className="mt-2 text-sm text-muted-foreground">Check the connection and reload the page.</p>
      </main>
    );
  }
  if (!me.data) return <SignInPage />;
  return (
    <HqShell user={me.data}>
      <Outlet />
    </HqShell>
  );
}

function NotFound() {
  return (
    <div className="py-12 text-center">
      <h1 className="text-2xl font-bold">Page not found</h1>
      <p className="mt-2 text-sm text-muted-foreground">This head-office page does not exist.</p>
    </div>
  );
}

/** hqRoutes is head office's route table: each screen a lazy module of hq/screens. */
export const hqRoutes: RouteObject[] = [
  {
    element: <HqGate />,
    HydrateFallback: () => <LoadingScreen />,
    children: [
      { index: true, lazy: () => import("@/hq/screens/overview").then((m) => ({ Component: m.OverviewScreen })) },
      { path: hqPaths.history.path, lazy: () => import("@/hq/screens/history").then((m) => ({ Component: m.HistoryScreen })) },
      { path: hqPaths.packs.path, lazy: () => import("@/hq/screens/packs").then((m) => ({ Component: m.PackSearchScreen })) },
      { path: hqPaths.recalls.path, lazy: () => import("@/hq/screens/recalls").then((m) => ({ Component: m.RecallsScreen })) },
      { path: hqPaths.recall.path, lazy: () => import("@/hq/screens/recall").then((m) => ({ Component: m.RecallScreen })) },
      { path: hqPaths.transit.path, lazy: () => import("@/hq/screens/transit").then((m) => ({ Component: m.TransitScreen })) },
      { path: hqPaths.cities.path, lazy: () => import("@/hq/screens/cities").then((m) => ({ Component: m.CitiesScreen })) },
      { path: "*", Component: NotFound },
    ],
  },
];

/** HqApp is head office's whole application. */
export function HqApp() {
  const [client] = React.useState(makeHqQueryClient);
  const [router] = React.useState(() => createBrowserRouter(hqRoutes));
  return (
    <ErrorBoundary>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
        <LazyToaster />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
