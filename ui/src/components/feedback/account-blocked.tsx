import { ClockIcon } from "lucide-react";
import { Centered } from "@/components/feedback/centered";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
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
 */
export function AccountBlocked({ state }: { state: Exclude<ApprovalState, "approved"> }) {
  const logout = useLogout();
  const text = TEXT[state];
  return (
    <Centered>
      <Card className="w-full max-w-md text-center">
        <CardHeader>
          <ClockIcon aria-hidden className="mx-auto size-10 text-amber-500" />
          <CardTitle asChild className="text-xl">
            <h1>{text.title}</h1>
          </CardTitle>
          <CardDescription>{text.body}</CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="outline" onClick={() => logout.mutate()} disabled={logout.isPending}>
            Sign Out
          </Button>
        </CardContent>
      </Card>
    </Centered>
  );
}
