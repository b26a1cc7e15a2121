import * as React from "react";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useSignInFailures } from "@/features/system/api/sign-in-failures";
import { useUser } from "@/lib/auth";
import { formatDateTimeYear } from "@/lib/format";
import { isAdminRole } from "@/lib/user";

/**
 * SignInFailuresCard is the Failed Sign-ins block of /admin-system (SECURITY.md, "Sessions"):
 * each account and source with repeated failed sign-ins in the last 15 minutes, how many and
 * when last, and whether that source is being slowed. Other sources, the owner's included,
 * still sign in. Admins only.
 */
export function SignInFailuresCard() {
  const user = useUser();
  const admin = isAdminRole(user.data?.role);
  const failures = useSignInFailures(admin);
  const ids = React.useId();
  if (!admin) return null;
  const rows = failures.data ?? [];
  return (
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader>
        <CardTitle id={`${ids}-title`}>Failed Sign-ins</CardTitle>
        <CardDescription>
          Accounts with 3 or more failed sign-ins from one address in the last 15 minutes. From the 6th, that address waits
          longer before each further try (Slowed); the account&apos;s owner can still sign in from anywhere else.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {failures.isError ? (
          <p className="text-sm text-destructive">Could not load the failed sign-ins.</p>
        ) : rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">{failures.isPending ? "Loading..." : "No repeated failed sign-ins."}</p>
        ) : (
          <ul className="grid gap-3" aria-label="Failed sign-ins">
            {rows.map((r) => (
              <li key={`${r.account} ${r.source}`} className="grid gap-1 rounded-md border p-3 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium break-all">{r.account}</span>
                  {r.slowed && <Badge variant="warning">Slowed</Badge>}
                </div>
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-muted-foreground">
                  <dt>Source</dt>
                  <dd className="break-all">{r.source}</dd>
                  <dt>Failures</dt>
                  <dd>{r.count}</dd>
                  <dt>Last at</dt>
                  <dd>{formatDateTimeYear(r.lastAt)}</dd>
                </dl>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
