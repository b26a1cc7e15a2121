import { Outlet, useRouteError } from "react-router";
import { ApplicationError } from "@/components/errors/application-error";
import { ErrorBoundary } from "@/components/errors/error-boundary";

/** RootLayout wraps every screen in the Application Error boundary. */
export function RootLayout() {
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
