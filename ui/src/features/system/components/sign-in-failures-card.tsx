import { Badge } from "@/components/ui/badge";
import { useSignInFailures } from "@/features/system/api/sign-in-failures";
import { AdminRecordListCard } from "@/features/system/components/admin-record-list-card";
import { formatDateTimeYear } from "@/lib/format";

/**
 * SignInFailuresCard is the Failed Sign-ins block of /admin-system (SECURITY.md, "Sessions"):
 * each account and source with repeated failed sign-ins in the last 15 minutes, how many and
 * when last, and whether that source is being slowed. Other sources, the owner's included,
 * still sign in. Admins only.
 */
export function SignInFailuresCard() {
  return (
    <AdminRecordListCard
      useRows={useSignInFailures}
      title="Failed Sign-ins"
      description={
        <>
          Accounts with 3 or more failed sign-ins from one address in the last 15 minutes. From the 6th, that address waits
          longer before each further try (Slowed); the account&apos;s owner can still sign in from anywhere else.
        </>
      }
      error="Could not load the failed sign-ins."
      empty="No repeated failed sign-ins."
      listLabel="Failed sign-ins"
      rowKey={(r) => `${r.account} ${r.source}`}
      row={(r) => (
        <>
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
        </>
      )}
    />
  );
}
