import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CLEAN_SLATE_CONFIRM, useCleanSlate } from "@/features/system/api/system";
import { toast } from "@/hooks/use-toast";
import { newIdempotencyKey } from "@/lib/idempotency";
import { toastError } from "@/lib/toast-error";

/**
 * CleanSlateCard is block 3 of /admin-system: Clean Slate (Production Ready) behind the spec's
 * browser confirm (master admins). Toasts 'System reset for production deployment!'.
 */
export function CleanSlateCard() {
  const reset = useCleanSlate();
  const run = () => {
    if (!window.confirm(CLEAN_SLATE_CONFIRM)) return;
    reset.mutate(
      { idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: (res) => toast({ title: res?.message || "System reset for production deployment!" }),
        onError: (e) => toastError(e, "Failed to reset the system"),
      },
    );
  };
  return (
    <Card role="region" aria-labelledby="clean-slate-title" className="border-destructive/50">
      <CardHeader>
        <CardTitle id="clean-slate-title" className="text-destructive">
          Clean Slate
        </CardTitle>
        <CardDescription>
          Removes every movement, charging session, holding and photo, and puts the whole fleet back in Ready. Users, settings and
          signed agreements stay.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" onClick={run} disabled={reset.isPending}>
          {reset.isPending ? "Resetting..." : "Clean Slate (Production Ready)"}
        </Button>
      </CardContent>
    </Card>
  );
}
