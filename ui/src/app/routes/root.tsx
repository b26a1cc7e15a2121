import { Outlet, useLocation, useRouteError } from "react-router";
import { ApplicationError } from "@/components/errors/application-error";
import { ErrorBoundary } from "@/components/errors/error-boundary";
import { paths } from "@/config/paths";
import { useFirstScreenShown } from "@/lib/first-screen-shown";

/**
 * RootLayout wraps every screen in the Application Error boundary. Away from / there is no
 * first screen to wait for: what loads after it (lib/first-screen-shown.ts) loads at once.
 */
export function RootLayout() {
  useFirstScreenShown(useLocation().pathname !== paths.home.path);
  return (
    <ErrorBoundary>
      <Outlet />
    </ErrorBoundary>
  );
}

/** RouteError shows errors the router catches itself (e.g. a lazy screen that failed to load). */
export function RouteError() {
  const error = useRouteError();
  return <ApplicationError error={error} onReset={() => window.location.reload()} />;
}
