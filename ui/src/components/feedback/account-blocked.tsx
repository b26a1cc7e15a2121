import { ClockIcon } from "lucide-react";
import type * as React from "react";
import { MessageScreen } from "@/components/feedback/message-card";
import { Button } from "@/components/ui/button";
import { useLogout } from "@/lib/auth";
import type { ApprovalState } from "@/lib/user";

const TEXT: Record<Exclude<ApprovalState, "approved">, { title: string; body: string }> = {
  pending: {
    title: "Account Pending Approval",
    body: "Your account has been created and is waiting for an administrator to approve it. You will get full access once it is approved.",
  },
  rejected: {
    title: "Account Rejected",
    body: "An administrator has rejected this account. Please contact your administrator if you think this is a mistake.",
  },
  suspended: {
    title: "Account Suspended",
    body: "This account has been suspended. Please contact your administrator.",
  },
};

/**
 * AccountBlocked is the blocking panel for a signed-in user who is not approved:
 * 'Account Pending Approval' with a Sign Out button (rejected and suspended get their own word).
 * children come before the button (the signer's own agreement).
 */
export function AccountBlocked({ state, children }: { state: Exclude<ApprovalState, "approved">; children?: React.ReactNode }) {
  const logout = useLogout();
  const text = TEXT[state];
  return (
    <MessageScreen icon={<ClockIcon aria-hidden className="text-amber-500" />} title={text.title} description={text.body}>
      {children}
      <Button variant="outline" className="mx-auto" onClick={() => logout.mutate()} disabled={logout.isPending}>
        Sign Out
      </Button>
    </MessageScreen>
  );
}
