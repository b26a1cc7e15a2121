// The app's ONE route table (spec part 2 §2). Every screen is a lazy route module in
// app/routes/ that composes feature components; paths come from config/paths.ts.
// To add a screen: add its path to paths.ts, a module app/routes/<name>.tsx exporting
// `<Name>Route`, and one line below (inside SignedInLayout for signed-in screens, inside a
// RequireRole element when only some roles may open it).
import type { ComponentType } from "react";
import { createBrowserRouter, matchRoutes, type RouteObject } from "react-router";
import { LoadingScreen } from "@/components/feedback/loading-screen";
import { Spinner } from "@/components/ui/spinner";
import { paths } from "@/config/paths";
import { RequireRole } from "@/app/routes/require-role";
import { RootLayout, RouteError } from "@/app/routes/root";
import { SessionGate, preloadSessionScreen } from "@/app/routes/session-gate";
import { firstScreenRoutes } from "@/app/first-screen-routes";
import { userQueryOptions } from "@/lib/auth";
import { queryClient } from "@/lib/query-client";
import { loadable, useLoadable } from "@/lib/loadable";

// Home is a Loadable component, not a lazy route: the router loads a matched route's module
// before rendering, and a guest at / must not download the signed-in home (SessionGate shows
// them the sign-in screen). Not React.lazy either: see lib/loadable.tsx.
const homeRoute = loadable(() => import("@/app/routes/home").then((m) => m.HomeRoute));

function Home() {
  const HomeRoute = useLoadable(homeRoute);
  return HomeRoute ? <HomeRoute /> : <Spinner className="mx-auto my-16 block size-6" label="Loading..." />;
}

/** page is a lazy route: at path, the component of a route module loaded as its own chunk. */
function page(path: string, load: () => Promise<ComponentType>): RouteObject {
  return { path, lazy: () => load().then((Component) => ({ Component })) };
}

const ADMINS = ["admin", "master_admin"] as const;
const ADMINS_AND_LIAISON = ["admin", "master_admin", "corporate_liason"] as const;
const EVERY_ROLE = ["admin", "master_admin", "corporate_liason", "driver"] as const;

/** routes is the route table. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    HydrateFallback: () => <LoadingScreen />,
    children: [
      page(paths.auth.path, () => import("@/app/routes/auth").then((m) => m.AuthRoute)),
      // what a label's QR code opens, signed in or not: outside the session gate (an admin is
      // taken to the pack page, anyone else sees the pack's public passport)
      page(paths.packLabel.path, () => import("@/app/routes/pack-label").then((m) => m.PackLabelRoute)),
      page(paths.mobileDebug.path, () => import("@/app/routes/mobile-debug").then((m) => m.MobileDebugRoute)),
      {
        // the gate is in the entry; the shell (header, tab bar, realtime link) is its own chunk,
        // not part of the sign-in screen's first load
        element: <SessionGate />,
        children: [
          {
            index: true,
            element: <Home />,
          },
          page(paths.changePassword.path, () => import("@/app/routes/change-password").then((m) => m.ChangePasswordRoute)),
          {
            // the server answers each role what it may see (a driver: the packs they hold)
            element: <RequireRole roles={EVERY_ROLE} />,
            children: [
              page(paths.packs.path, () => import("@/app/routes/packs").then((m) => m.PacksRoute)),
              page(paths.pack.path, () => import("@/app/routes/packs").then((m) => m.PackRoute)),
            ],
          },
          {
            element: <RequireRole roles={ADMINS_AND_LIAISON} />,
            children: [
              page(paths.liaison.path, () => import("@/app/routes/liaison").then((m) => m.LiaisonRoute)),
              page(paths.liaisonConsole.path, () => import("@/app/routes/liaison").then((m) => m.LiaisonRoute)),
              page(paths.adminPhotos.path, () => import("@/app/routes/admin-photos").then((m) => m.AdminPhotosRoute)),
              page(paths.packModels.path, () => import("@/app/routes/pack-models").then((m) => m.PackModelsRoute)),
              page(paths.adminDropoffNotes.path, () => import("@/app/routes/admin-dropoff-notes").then((m) => m.AdminDropoffNotesRoute)),
            ],
          },
          {
            element: <RequireRole roles={ADMINS} />,
            children: [
              page(paths.adminConsole.path, () => import("@/app/routes/admin-console").then((m) => m.AdminConsoleRoute)),
              page(paths.adminCharging.path, () => import("@/app/routes/admin-charging").then((m) => m.AdminChargingRoute)),
              page(paths.adminDriverSwaps.path, () => import("@/app/routes/admin-driver-swaps").then((m) => m.AdminDriverSwapsRoute)),
              page(paths.adminEmergency.path, () => import("@/app/routes/admin-emergency").then((m) => m.AdminEmergencyRoute)),
              page(paths.adminUsers.path, () => import("@/app/routes/admin-users").then((m) => m.AdminUsersRoute)),
              page(paths.adminSystem.path, () => import("@/app/routes/admin-system").then((m) => m.AdminSystemRoute)),
              page(paths.packRecalls.path, () => import("@/app/routes/pack-recalls").then((m) => m.PackRecallsRoute)),
              page(paths.packRecall.path, () => import("@/app/routes/pack-recalls").then((m) => m.PackRecallRoute)),
              page(paths.stocktake.path, () => import("@/app/routes/stocktake").then((m) => m.StocktakeRoute)),
              page(paths.transfers.path, () => import("@/app/routes/transfers").then((m) => m.TransfersRoute)),
              page(paths.transferSend.path, () => import("@/app/routes/transfers").then((m) => m.SendRoute)),
              page(paths.transferReceive.path, () => import("@/app/routes/transfers").then((m) => m.ReceiveRoute)),
              page(paths.transfer.path, () => import("@/app/routes/transfers").then((m) => m.TransferRoute)),
            ],
          },
        ],
      },
      page("*", () => import("@/app/routes/not-found").then((m) => m.NotFoundRoute)),
    ],
  },
];

/** createAppRouter builds the browser router from the route table. */
export function createAppRouter() {
  preloadRoute(window.location.pathname);
  return createBrowserRouter(routes);
}

/**
 * ROUTE_MODULES are the loaders of the route modules a first screen may list
 * (app/first-screen-routes.ts; the same chunks as their own lazy imports). Not every route:
 * a dynamic import of a module the entry holds (root, session-gate) would split the entry.
 */
export const ROUTE_MODULES = import.meta.glob(["./routes/home*.tsx", "./routes/signed-in.tsx", "./routes/liaison.tsx", "!./routes/*.test.tsx"]);

/**
 * preloadRoute starts fetching the lazy chunks of every route matching pathname at once, in
 * parallel, instead of one after the other as the router renders them (the browser keeps
 * each module, so the router's own lazy() calls then resolve at once).
 */
export function preloadRoute(pathname: string) {
  for (const m of matchRoutes(routes, pathname) ?? []) {
    const load = m.route.lazy;
    if (typeof load === "function") void Promise.resolve(load()).catch(() => undefined);
  }
  // Every screen starts from the session: ask for it now, not once the shell's chunk has run.
  // On /, the user's first screen's chunks follow as soon as it answers, from the same list
  // that writes the boot script (which asks for the screen's calls).
  void queryClient
    .fetchQuery(userQueryOptions)
    .then((user) => {
      preloadSessionScreen(!!user, pathname);
      if (pathname !== paths.home.path) return;
      for (const file of firstScreenRoutes(user)) void ROUTE_MODULES[file.replace(/^src\/app\//, "./")]?.().catch(() => undefined);
    })
    .catch(() => undefined);
}
