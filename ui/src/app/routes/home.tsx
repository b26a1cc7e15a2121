import { PageHeader } from "@/components/layouts/app-shell";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { type AppState, useAppState } from "@/lib/state";
import { useUser } from "@/lib/auth";
import { useFirstScreenShown } from "@/lib/first-screen-shown";
import { loadable, useLoadable } from "@/lib/loadable";
import { type User, displayName, isAdminRole, isLiaisonRole } from "@/lib/user";

// Each role's dashboard is a separate chunk, fetched for the signed-in role only (Loadables,
// not React.lazy: lib/loadable.tsx).
const adminHome = loadable(() => import("@/app/routes/home-admin").then((m) => m.AdminHome));
const driverHome = loadable(() => import("@/app/routes/home-driver").then((m) => m.DriverHome));
const liaisonScreen = loadable(() => import("@/app/routes/liaison").then((m) => m.LiaisonScreen));

/** HomeRoute is /: the role's dashboard (liaison, admin or driver), loaded from /api/state. */
export function HomeRoute() {
  const { data: user } = useUser();
  if (!user) return null;
  if (isLiaisonRole(user.role)) return <LiaisonHome user={user} />;
  return <StateHome user={user} />;
}

function LiaisonHome({ user }: { user: User }) {
  const LiaisonScreen = useLoadable(liaisonScreen);
  useFirstScreenShown(!!LiaisonScreen);
  return LiaisonScreen ? <LiaisonScreen user={user} /> : <Loading />;
}

/**
 * HomeSkeleton is the dashboard's own header (the same title and welcome the dashboard shows)
 * over placeholders, painted while the role's dashboard code and /api/state arrive: on a slow
 * phone network the driver sees their page at once instead of a spinner (issue 14).
 */
function HomeSkeleton({ user }: { user: User }) {
  return (
    <div className="space-y-5" aria-busy="true">
      <PageHeader title={isAdminRole(user.role) ? "Home" : "Driver Home"} description={`Welcome, ${displayName(user)}`} />
      <Skeleton className="h-28 w-full" />
      <Skeleton className="h-40 w-full" />
      <span className="sr-only">Loading...</span>
    </div>
  );
}

function Loading() {
  return (
    <div className="flex items-center justify-center gap-2 py-16 text-sm text-muted-foreground">
      <Spinner label="Loading..." />
      Loading...
    </div>
  );
}

function StateHome({ user }: { user: User }) {
  // the role's dashboard chunk downloads while /api/state loads, not after
  const Dashboard = useLoadable(isAdminRole(user.role) ? adminHome : driverHome);
  const state = useAppState();
  const ready = !state.isPending && !!Dashboard;
  // after the dashboard's own effects: its calls have started (app/first-screen.ts)
  useFirstScreenShown(ready);
  if (!ready) return <HomeSkeleton user={user} />;
  const data: AppState | undefined = state.data;
  return <Dashboard user={user} state={data} />;
}
