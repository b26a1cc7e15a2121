import { Suspense, lazy } from "react";
import { Spinner } from "@/components/ui/spinner";
import { type AppState, useAppState } from "@/lib/state";
import { useUser } from "@/lib/auth";
import { type User, isAdminRole, isLiaisonRole } from "@/lib/user";

// Each role's dashboard is a separate chunk, fetched for the signed-in role only.
const loadAdminHome = () => import("@/app/routes/home-admin");
const loadDriverHome = () => import("@/app/routes/home-driver");
const AdminHome = lazy(() => loadAdminHome().then((m) => ({ default: m.AdminHome })));
const DriverHome = lazy(() => loadDriverHome().then((m) => ({ default: m.DriverHome })));
const LiaisonScreen = lazy(() => import("@/app/routes/liaison").then((m) => ({ default: m.LiaisonScreen })));

/** HomeRoute is /: the role's dashboard (liaison, admin or driver), loaded from /api/state. */
export function HomeRoute() {
  const { data: user } = useUser();
  if (!user) return null;
  return (
    <Suspense fallback={<Loading />}>
      {isLiaisonRole(user.role) ? <LiaisonScreen user={user} /> : <StateHome user={user} />}
    </Suspense>
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
  // fetch the role's dashboard chunk while /api/state loads, not after
  void (isAdminRole(user.role) ? loadAdminHome() : loadDriverHome());
  const state = useAppState();
  if (state.isPending) return <Loading />;
  const data: AppState | undefined = state.data;
  if (isAdminRole(user.role)) return <AdminHome user={user} state={data} />;
  return <DriverHome user={user} state={data} />;
}
