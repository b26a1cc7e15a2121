import { CopyIcon } from "lucide-react";
import * as React from "react";
import { Link } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { PageHeader } from "@/components/layouts/app-shell";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { paths } from "@/config/paths";
import { PackStateBadge } from "@/components/pack-state-badge";
import { type Transfer, qrURL, useTransfer } from "@/features/transfers/api/transfers";
import { LoadStatus } from "@/features/transfers/components/load-status";
import { packsWord, quarantinedOnArrival } from "@/features/transfers/utils/paths";
import { toast } from "@/hooks/use-toast";
import { formatDateTime } from "@/lib/format";

/** MAX_QR is the longest manifest the server draws as a QR code (modules/transfers MaxQR). */
export const MAX_QR = 2900;

function packLink(serial: string): string {
  return paths.pack.path.replace(":serial", encodeURIComponent(serial));
}

/** transferTitle is how a transfer reads: "Sent 2 packs to Berlin", "Received 1 pack from Paris". */
export function transferTitle(t: Pick<Transfer, "direction" | "serials" | "otherCity">): string {
  return t.direction === "out" ? `Sent ${packsWord(t.serials.length)} to ${t.otherCity}` : `Received ${packsWord(t.serials.length)} from ${t.otherCity}`;
}

/** TransferPage is /packs/transfers/:id: a send's manifest (QR and text to copy) and its packs, or a receive's packs. */
export function TransferPage({ id }: { id: string }) {
  const q = useTransfer(id);
  const ids = React.useId();
  const t = q.data;
  const recalled = t?.direction === "in" ? quarantinedOnArrival(t) : "";
  return (
    <>
      <PageHeader title={t ? transferTitle(t) : "Transfer"} description={t ? `${formatDateTime(t.at)} · ${t.actor.name || "—"}` : undefined}>
        <ButtonLink variant="ghost" to={paths.transfers.path}>All transfers</ButtonLink>
      </PageHeader>
      <LoadStatus query={q} loading="Loading the transfer" failure="Could not load the transfer" />
      {t && (
        <div className="space-y-4">
          {t.direction === "out" && t.manifest && (
            <Card>
              <CardHeader className="pb-2">
                <CardTitle>Manifest for {t.otherCity}</CardTitle>
                <p className="text-sm text-muted-foreground">
                  In {t.otherCity}, an admin opens Packs → Transfers → Receive from another city and pastes this text (or scans the QR code), then scans each pack as it arrives.
                </p>
              </CardHeader>
              <CardContent className="grid gap-3">
                {t.manifest.length <= MAX_QR && (
                  <img src={qrURL(t.id)} alt={`QR code of the manifest for ${t.otherCity}`} className="size-64 max-w-full self-center justify-self-center rounded border bg-white" />
                )}
                <div className="grid gap-1.5">
                  <Label htmlFor={`${ids}-manifest`}>Manifest</Label>
                  <Textarea id={`${ids}-manifest`} readOnly value={t.manifest} rows={4} className="font-mono text-xs break-all" onFocus={(e) => e.currentTarget.select()} />
                </div>
                <Button
                  type="button"
                  variant="secondary"
                  className="justify-self-start"
                  onClick={() => {
                    void navigator.clipboard?.writeText(t.manifest ?? "").then(
                      () => toast({ title: "Manifest copied" }),
                      () => toast({ title: "Could not copy", description: "Select the text and copy it.", variant: "destructive" }),
                    );
                  }}
                >
                  <CopyIcon aria-hidden />
                  Copy
                </Button>
              </CardContent>
            </Card>
          )}
          <Card>
            <CardHeader className="pb-2">
              <CardTitle>{t.direction === "out" ? `Packs sent (${t.serials.length})` : `Packs received (${t.serials.length})`}</CardTitle>
              {t.direction === "in" && t.expected.length > 0 && (
                <p className="text-sm text-muted-foreground">
                  {t.received.length} of {t.expected.length} packs of this transfer received so far.
                </p>
              )}
            </CardHeader>
            <CardContent>
              <ul aria-label={t.direction === "out" ? "Packs sent" : "Packs received"} className="flex flex-col divide-y rounded-md border">
                {t.serials.map((s) => (
                  <li key={s} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
                    <Link to={packLink(s)} className="font-mono text-sm underline-offset-4 hover:underline">
                      {s}
                    </Link>
                    {t.states?.[s] && <PackStateBadge state={t.states[s]} />}
                  </li>
                ))}
              </ul>
              {recalled && <p className="mt-3 text-sm">{recalled}</p>}
              {t.notes && <p className="mt-3 text-sm text-muted-foreground">{t.notes}</p>}
            </CardContent>
          </Card>
        </div>
      )}
    </>
  );
}
