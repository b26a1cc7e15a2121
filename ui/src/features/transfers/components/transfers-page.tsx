import { Link } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { PageHeader } from "@/components/layouts/app-shell";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent } from "@/components/ui/card";
import { paths } from "@/config/paths";
import { useTransfers } from "@/features/transfers/api/transfers";
import { LoadStatus } from "@/features/transfers/components/load-status";
import { transferTitle } from "@/features/transfers/components/transfer-page";
import { transferPath } from "@/features/transfers/utils/paths";
import { formatDateTime } from "@/lib/format";

/** TransfersPage is /packs/transfers: every send and receive, newest first, and the way to each. */
export function TransfersPage() {
  const q = useTransfers();
  return (
    <>
      <PageHeader title="Transfers" description="Packs sent to other cities and received from them.">
        <div className="flex flex-wrap gap-2">
          <ButtonLink to={paths.transferSend.path}>Send to another city</ButtonLink>
          <ButtonLink variant="outline" to={paths.transferReceive.path}>Receive from another city</ButtonLink>
          <ButtonLink variant="ghost" to={paths.packs.path}>All packs</ButtonLink>
        </div>
      </PageHeader>
      <LoadStatus query={q} loading="Loading the transfers" failure="Could not load the transfers" />
      {q.data && q.data.length === 0 && <p className="text-sm text-muted-foreground">No packs have been sent or received yet.</p>}
      {q.data && q.data.length > 0 && (
        <Card>
          <CardContent>
            <ul aria-label="Transfers" className="flex flex-col divide-y">
              {q.data.map((t) => (
                <li key={t.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-3">
                  <Badge variant={t.direction === "out" ? "secondary" : "default"}>{t.direction === "out" ? "Sent" : "Received"}</Badge>
                  <Link to={transferPath(t.id)} className="font-medium underline-offset-4 hover:underline">
                    {transferTitle(t)}
                  </Link>
                  <span className="text-sm text-muted-foreground">
                    {formatDateTime(t.at)}
                    {t.actor.name ? ` · ${t.actor.name}` : ""}
                  </span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
    </>
  );
}
