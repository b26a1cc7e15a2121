import { CheckIcon, XIcon } from "lucide-react";
import { useEffect, useRef } from "react";
import { CardList } from "@/components/card-list";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { fallbackFocus } from "@/components/ui/return-focus";
import { Skeleton } from "@/components/ui/skeleton";
import { usePendingUsers } from "@/features/users/api/get-pending-users";
import { useUpdateApproval } from "@/features/users/api/update-approval";
import { newIdempotencyKey } from "@/lib/idempotency";
import { formatDateTime } from "@/lib/format";
import { displayName } from "@/lib/user";

/** DECISIONS are a pending user's two buttons, in order: Approve, then Reject (red). */
const DECISIONS = [
  { approval: "approved", label: "Approve", icon: CheckIcon, variant: "default" },
  { approval: "rejected", label: "Reject", icon: XIcon, variant: "destructive" },
] as const;

/** PendingUsers is the Pending Approval list with Approve and Reject per user. */
export function PendingUsers() {
  const pending = usePendingUsers();
  const approval = useUpdateApproval();
  const busyId = approval.isPending ? approval.variables?.userId : undefined;
  // Approve and Reject remove their own row: once the list has changed, a keyboard user's
  // focus (left on <body>) goes to the next user's first button, else to the list's card
  // (WCAG 2.4.3), instead of the top of the page.
  const card = useRef<HTMLDivElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current || !card.current) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    refocus.current = false;
    const list = card.current.querySelector("ul");
    fallbackFocus(list ? [list, card.current] : [card.current]);
  }, [pending.data]);
  const decide = (userId: string, isApproved: "approved" | "rejected") => {
    refocus.current = true;
    approval.mutate({ userId, isApproved, idempotencyKey: newIdempotencyKey() });
  };

  return (
    <Card ref={card} role="region" aria-labelledby="pending-approval-title">
      <CardHeader>
        <CardTitle id="pending-approval-title">Pending Approval</CardTitle>
        <CardDescription>New accounts wait here until an administrator approves or rejects them.</CardDescription>
      </CardHeader>
      <CardContent>
        {pending.isPending && <Skeleton className="h-16 w-full" />}
        {pending.data?.length === 0 && <p className="text-sm text-muted-foreground">No users awaiting approval</p>}
        {pending.data && pending.data.length > 0 && (
          <CardList
            label="Users awaiting approval"
            rows={pending.data}
            rowKey={(u) => u.id}
            itemClassName="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3"
            item={(u) => (
              <>
                <div className="min-w-0">
                  <p className="font-medium">{displayName(u)}</p>
                  <p className="truncate text-sm text-muted-foreground">{u.email}</p>
                  {u.created && <p className="text-xs text-muted-foreground">Registered {formatDateTime(u.created)}</p>}
                </div>
                <div className="flex gap-2">
                  {DECISIONS.map(({ approval: a, label, icon: Icon, variant }) => (
                    <Button
                      key={a}
                      size="sm"
                      variant={variant}
                      aria-label={`${label} ${displayName(u)}`}
                      disabled={busyId === u.id}
                      onClick={() => decide(u.id, a)}
                    >
                      <Icon /> {label}
                    </Button>
                  ))}
                </div>
              </>
            )}
          />
        )}
      </CardContent>
    </Card>
  );
}
