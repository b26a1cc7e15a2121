import { CheckIcon } from "lucide-react";
import * as React from "react";
import { useNavigate } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { OptionSelect } from "@/components/option-select";
import { ActionBar } from "@/components/layouts/action-bar";
import { PageHeader } from "@/components/layouts/app-shell";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { paths } from "@/config/paths";
import { CodeEntry, PackRow, serialFromCode } from "@/features/scan";
import { useReceivePacks, useTransfers } from "@/features/transfers/api/transfers";
import { readManifest } from "@/features/transfers/utils/manifest";
import { packsWord, quarantinedOnArrival, transferPath } from "@/features/transfers/utils/paths";
import { toast } from "@/hooks/use-toast";
import { ApiError } from "@/lib/api-client";
import { newIdempotencyKey } from "@/lib/idempotency";
import { toastError } from "@/lib/toast-error";

/** MSG_NOT_IN_TRANSFER is a scanned pack the manifest does not list. */
export const MSG_NOT_IN_TRANSFER = "Not in this transfer";

/** RECEIVE_TO are where the packs received go. */
const RECEIVE_TO = [
  { value: "ready", label: "Ready" },
  { value: "waiting", label: "Waiting to charge" },
];

/** ReceivePage is /packs/transfers/receive: paste another city's manifest, scan each pack that arrived, receive them. */
export function ReceivePage() {
  const ids = React.useId();
  const navigate = useNavigate();
  const receive = useReceivePacks();
  const transfers = useTransfers();
  const [text, setText] = React.useState("");
  const [scanned, setScanned] = React.useState<string[]>([]);
  const [to, setTo] = React.useState<"ready" | "waiting">("ready");
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const key = React.useRef<string | null>(null);
  const latest = React.useRef(scanned);
  latest.current = scanned;

  const read = React.useMemo(() => readManifest(text), [text]);
  const manifest = "manifest" in read ? read.manifest : null;
  const listed = React.useMemo(() => new Set(manifest?.packs.map((p) => p.serial) ?? []), [manifest]);
  // the serials already received from this send, by earlier receives here
  const earlier = React.useMemo(() => {
    const out = new Set<string>();
    for (const t of transfers.data ?? []) if (t.direction === "in" && manifest && t.ref === manifest.ref) for (const s of t.serials) out.add(s);
    return out;
  }, [transfers.data, manifest]);

  function add(code: string): "added" | "duplicate" | "wrong" | { refused: string } {
    const serial = serialFromCode(code);
    if (!serial) return "wrong";
    if (!listed.has(serial)) return { refused: `${serial}: ${MSG_NOT_IN_TRANSFER}` };
    if (earlier.has(serial)) return { refused: `${serial} was already received` };
    // the latest list, so codes found in quick succession each see the ones before them
    if (latest.current.includes(serial)) return "duplicate";
    latest.current = [...latest.current, serial];
    setScanned(latest.current);
    key.current = null;
    return "added";
  }

  function typedRefusal(typed: string): string {
    const r = add(typed);
    if (r === "wrong") return "Not a pack serial or label";
    if (r === "duplicate") return `${serialFromCode(typed)} is already scanned`;
    if (typeof r === "object") return r.refused;
    return "";
  }

  function doReceive() {
    key.current ??= newIdempotencyKey();
    receive.mutate(
      { manifest: text.trim(), serials: scanned, to, idempotencyKey: key.current },
      {
        onSuccess: (res) => {
          key.current = null;
          const recalled = quarantinedOnArrival(res.transfer);
          toast(recalled ? { title: res.message, description: recalled } : { title: res.message });
          void navigate(transferPath(res.transfer.id));
        },
        onError: (e) => {
          if (e instanceof ApiError && e.status >= 400 && e.status < 500) key.current = null;
          if (e instanceof ApiError) {
            const packs = ((e.data ?? {}) as { packs?: { serial: string; message: string }[] }).packs ?? [];
            setErrors(Object.fromEntries(packs.map((p) => [p.serial, p.message])));
          }
          toastError(e, "Could not receive the packs");
        },
      },
    );
  }

  const count = `${scanned.length} of ${manifest?.packs.length ?? 0} scanned`;
  return (
    <>
      <PageHeader title="Receive from another city" description="Paste the manifest from the sending city's transfer page, then scan each pack that arrived.">
        <ButtonLink variant="ghost" to={paths.transfers.path}>All transfers</ButtonLink>
      </PageHeader>
      <div className="space-y-4 pb-24">
        <Card>
          <CardContent className="grid gap-1.5">
            <Label htmlFor={`${ids}-manifest`}>Manifest</Label>
            <Textarea
              id={`${ids}-manifest`}
              value={text}
              rows={3}
              className="font-mono text-xs break-all"
              spellCheck={false}
              autoComplete="off"
              placeholder="SWBT1.…"
              aria-invalid={"error" in read && read.error ? true : undefined}
              aria-describedby={"error" in read && read.error ? `${ids}-manifest-error` : undefined}
              onChange={(e) => {
                setText(e.target.value);
                setScanned([]);
                setErrors({});
                key.current = null;
              }}
            />
            {"error" in read && read.error && (
              <p id={`${ids}-manifest-error`} role="alert" className="text-xs font-medium text-destructive">
                {read.error}
              </p>
            )}
          </CardContent>
        </Card>
        {manifest && (
          <>
            <Card>
              <CardHeader className="pb-2">
                <CardTitle>
                  From {manifest.from.name || "another city"} · {packsWord(manifest.packs.length)}
                </CardTitle>
                <p className="text-sm text-muted-foreground">Scan each pack as you unpack it. Only the packs scanned are received; the rest can be received later with the same manifest.</p>
              </CardHeader>
              <CardContent className="grid gap-4">
                <CodeEntry
                  text="Scan packs"
                  label={`Packs from ${manifest.from.name}`}
                  count={count}
                  list={<p className="text-sm">{scanned.join(", ")}</p>}
                  onCode={add}
                  addLabel="Add to the packs received"
                  onTyped={typedRefusal}
                />
                <p className="text-sm text-muted-foreground" aria-live="polite">
                  {count}
                </p>
                <ul aria-label="Packs in this transfer" className="flex flex-col divide-y rounded-md border">
                  {manifest.packs.map((p) => {
                    const here = scanned.includes(p.serial);
                    const before = earlier.has(p.serial);
                    const error = errors[p.serial];
                    return (
                      <PackRow
                        key={p.serial}
                        serial={p.serial}
                        mark={here || before ? <CheckIcon className="size-4 text-emerald-600" aria-hidden /> : <span className="size-4" aria-hidden />}
                        detail={(error || (before ? "Received earlier" : here ? "Scanned" : "Not scanned yet")) + (!error && p.model ? ` · ${p.model}` : "")}
                        problem={!!error}
                        onRemove={here ? () => setScanned((l) => l.filter((s) => s !== p.serial)) : undefined}
                      />
                    );
                  })}
                </ul>
                <div className="grid gap-1.5 sm:max-w-xs">
                  <Label htmlFor={`${ids}-to`}>Put them on</Label>
                  <OptionSelect id={`${ids}-to`} value={to} onValueChange={(v) => (v === "ready" || v === "waiting") && setTo(v)} options={RECEIVE_TO} />
                </div>
              </CardContent>
            </Card>
          </>
        )}
      </div>
      <ActionBar>
        <Button disabled={!manifest || scanned.length === 0 || receive.isPending} onClick={doReceive}>
          {receive.isPending && <Spinner label="Receiving" />}
          {scanned.length > 0 ? `Receive ${packsWord(scanned.length)}` : "Receive"}
        </Button>
      </ActionBar>
    </>
  );
}
