// the driver actions the outbox sends, registered before the shell starts it
import "@/app/driver-actions";
import { useEffect } from "react";
import { Outlet, useNavigate } from "react-router";
import { AccountBlocked } from "@/components/feedback/account-blocked";
import { ConnectionIssue } from "@/components/feedback/connection-issue";
import { AuthLoadingScreen, LoadingScreen } from "@/components/feedback/loading-screen";
import { AppShell } from "@/components/layouts/app-shell";
import { TooltipProvider } from "@/components/ui/tooltip";
import { MyAgreementLink } from "@/features/auth/components/my-agreement-link";
import { ResignTerms } from "@/features/auth/components/resign-terms";
import { HeldActions } from "@/features/outbox/components/held-actions";
import { useOutboxStart } from "@/features/outbox/hooks/use-outbox-start";
import { useUser } from "@/lib/auth";
import { loadable, useLoadable } from "@/lib/loadable";
import { useRealtime } from "@/lib/realtime";
import { handleUnauthorized } from "@/lib/unauthorized";
import type { User } from "@/lib/user";

// The outbox's queue (a driver's status line and sheet): its own chunk, loaded with the field bar
// after the first screen.
const outboxQueue = loadable(() => import("@/features/outbox/components/queue-sheet").then((m) => m.OutboxQueue));

function LoadedOutboxQueue({ user }: { user: User }) {
  const OutboxQueue = useLoadable(outboxQueue);
  return OutboxQueue ? <OutboxQueue user={user} /> : null;
}

/**
 * SignedInLayout guards every signed-in screen (spec part 2 §2), inside SessionGate (which
 * shows the sign-in screen to a guest at /): a spinner while the auth check runs, 'Connection
 * Issue' when it fails, for a guest the Unauthorized toast and /auth after 500 ms, the blocking panel for accounts
 * that are not approved, the re-sign panel for users who must sign the terms again, else the
 * shell around the screen. It also keeps the realtime link (/ws) open for approved users who
 * have nothing to sign (the server refuses the others).
 */
export function SignedInLayout() {
  const { data: user, isPending, isError } = useUser();
  // The one realtime link of the tab (spec part 1 §4): open while an approved user with nothing
  // to sign is signed in.
  const working = user && user.isApproved === "approved" && !user.mustResignTerms ? user.id : null;
  useRealtime(working);
  // The outbox runs for the same user from here: the queue's sheet loads after the first screen,
  // and a tap before it must find the outbox running.
  useOutboxStart(working);

  if (isPending) return <AuthLoadingScreen />;
  if (isError) return <ConnectionIssue />;
  if (!user) return <RedirectToAuth />;
  if (user.isApproved !== "approved")
    return (
      <AccountBlocked state={user.isApproved}>
        {/* the actions this driver queued are kept, neither sent nor dropped, while the account is on hold */}
        <HeldActions userId={user.id} />
        <MyAgreementLink />
      </AccountBlocked>
    );
  if (user.mustResignTerms) return <ResignTerms />;
  return (
    <TooltipProvider>
      <AppShell user={user} queue={<LoadedOutboxQueue user={user} />}>
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
