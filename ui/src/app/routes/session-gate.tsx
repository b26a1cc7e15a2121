import { Suspense, lazy } from "react";
import { useLocation } from "react-router";
import { ConnectionIssue } from "@/components/feedback/connection-issue";
import { AuthLoadingScreen, LoadingScreen } from "@/components/feedback/loading-screen";
import { paths } from "@/config/paths";
import { useUser } from "@/lib/auth";

// Both are their own chunks: a guest at / downloads the sign-in screen and never the
// signed-in shell, a signed-in user the shell and never the sign-in form (issue 28). The boot
// script (build/boot-script.ts) preloads the one the session calls for.
const loadAuthPage = () => import("@/features/auth/components/auth-page");
const loadSignedIn = () => import("@/app/routes/signed-in");
const AuthPage = lazy(() => loadAuthPage().then((m) => ({ default: m.AuthPage })));
const SignedInLayout = lazy(() => loadSignedIn().then((m) => ({ default: m.SignedInLayout })));

/**
 * SessionGate is the element of every signed-in route (spec part 2 §2), part of the entry:
 * a spinner while the auth check runs, the sign-in screen at / for a guest, else the
 * signed-in layout (its chunk), which handles the rest (Connection Issue, the redirect of a
 * guest on another path, blocked accounts, re-signing, the shell).
 */
export function SessionGate() {
  const { data: user, isPending, isError } = useUser();
  const { pathname } = useLocation();
  if (isPending) return <AuthLoadingScreen />;
  // here, not in the layout: mounting the layout's own observer would refetch the failed
  // check, which sets it pending again (no data yet) and unmounts the layout, in a loop
  if (isError) return <ConnectionIssue />;
  if (!user && pathname === paths.home.path) {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <AuthPage />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={<AuthLoadingScreen />}>
      <SignedInLayout />
    </Suspense>
  );
}

/** preloadSessionScreen starts the chunk the session calls for at pathname (null: a guest). */
export function preloadSessionScreen(signedIn: boolean, pathname: string) {
  if (signedIn) void loadSignedIn().catch(() => undefined);
  else if (pathname === paths.home.path) void loadAuthPage().catch(() => undefined);
}
