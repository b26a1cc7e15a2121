import { Suspense, lazy, useEffect } from "react";
import { Outlet, useLocation, useNavigate } from "react-router";
import { AccountBlocked } from "@/components/feedback/account-blocked";
import { ConnectionIssue } from "@/components/feedback/connection-issue";
import { AuthLoadingScreen, LoadingScreen } from "@/components/feedback/loading-screen";
import { AppShell } from "@/components/layouts/app-shell";
import { TooltipProvider } from "@/components/ui/tooltip";
import { paths } from "@/config/paths";
import { MyAgreementLink } from "@/features/auth/components/my-agreement-link";
import { ResignTerms } from "@/features/auth/components/resign-terms";
import { useUser } from "@/lib/auth";
import { useRealtime } from "@/lib/realtime";
import { handleUnauthorized } from "@/lib/unauthorized";

// The sign-in screen (shown at / to guests) is its own chunk, shared with the /auth route.
const AuthPage = lazy(() => import("@/features/auth/components/auth-page").then((m) => ({ default: m.AuthPage })));

/**
 * SignedInLayout guards every signed-in screen (spec part 2 §2): a spinner while the auth
 * check runs, 'Connection Issue' when it fails, the sign-in screen at / for guests (other
 * paths: the Unauthorized toast and /auth after 500 ms), the blocking panel for accounts
 * that are not approved (with the signer's own agreement to download), the re-sign panel for users who must sign the terms again, else the
 * shell around the screen. It also keeps the realtime link (/ws) open for approved users who
 * have nothing to sign (the server refuses the others).
 */
export function SignedInLayout() {
  const { data: user, isPending, isError } = useUser();
  const { pathname } = useLocation();
  // The one realtime link of the tab (spec part 1 §4): open while an approved user with nothing
  // to sign is signed in.
  useRealtime(user && user.isApproved === "approved" && !user.mustResignTerms ? user.id : null);

  if (isPending) return <AuthLoadingScreen />;
  if (isError) return <ConnectionIssue />;
  if (!user)
    return pathname === paths.home.path ? (
      <Suspense fallback={<LoadingScreen />}>
        <AuthPage />
      </Suspense>
    ) : (
      <RedirectToAuth />
    );
  if (user.isApproved !== "approved")
    return (
      <AccountBlocked state={user.isApproved}>
        <MyAgreementLink />
      </AccountBlocked>
    );
  if (user.mustResignTerms) return <ResignTerms />;
  return (
    <TooltipProvider>
      <AppShell user={user}>
        <Outlet />
      </AppShell>
    </TooltipProvider>
  );
}

function RedirectToAuth() {
  const navigate = useNavigate();
  useEffect(() => handleUnauthorized((path) => navigate(path, { replace: true })), [navigate]);
  return <LoadingScreen />;
}
