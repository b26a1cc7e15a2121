import { useLocation } from "react-router";
import { ConnectionIssue } from "@/components/feedback/connection-issue";
import { AuthLoadingScreen, LoadingScreen } from "@/components/feedback/loading-screen";
import { paths } from "@/config/paths";
import { useUser } from "@/lib/auth";
import { useFirstScreenShown } from "@/lib/first-screen-shown";
import { loadable, useLoadable } from "@/lib/loadable";

// Both are their own chunks: a guest at / downloads the sign-in screen and never the
// signed-in shell, a signed-in user the shell and never the sign-in form (issue 28). The boot
// script (build/boot-script.ts) preloads the one the session calls for. Loadables, not
// React.lazy: a preloaded chunk renders at once, without Suspense's 300 ms reveal throttle.
const authPage = loadable(() => import("@/features/auth/components/auth-page").then((m) => m.AuthPage));
const signedInLayout = loadable(() => import("@/app/routes/signed-in").then((m) => m.SignedInLayout));

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
  if (!user && pathname === paths.home.path) return <SignIn />;
  return <SignedIn />;
}

function SignIn() {
  const AuthPage = useLoadable(authPage);
  useFirstScreenShown(!!AuthPage);
  return AuthPage ? <AuthPage /> : <LoadingScreen />;
}

function SignedIn() {
  const SignedInLayout = useLoadable(signedInLayout);
  return SignedInLayout ? <SignedInLayout /> : <AuthLoadingScreen />;
}

/** preloadSessionScreen starts the chunk the session calls for at pathname (null: a guest). */
export function preloadSessionScreen(signedIn: boolean, pathname: string) {
  if (signedIn) void signedInLayout.preload().catch(() => undefined);
  else if (pathname === paths.home.path) void authPage.preload().catch(() => undefined);
}
