import { useQueryClient } from "@tanstack/react-query";
import { CloudOffIcon, InboxIcon, RefreshCwIcon } from "lucide-react";
import * as React from "react";
import { useLocation } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Hint } from "@/components/ui/hint";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { paths } from "@/config/paths";
import { applyUpdate, checkForUpdate, hasHalfFilledForm, startServiceWorker, useUpdateAvailable } from "@/lib/pwa";
import { type StoredItem, discard, resend, start } from "@/lib/outbox/outbox";
import { itemLabel, statusLine, useOutbox } from "@/lib/outbox/use-outbox";
import { afterWrite } from "@/lib/invalidation";
import { persistReads } from "@/lib/offline-cache";
import { isOffline, useOfflineState } from "@/lib/offline-status";
import { type User, isAdminRole, isLiaisonRole } from "@/lib/user";

// The field bar (DESIGN.md §12, issue 27): under the header of every signed-in screen. It
// registers the service worker, keeps the offline read cache, runs the outbox, and shows the
// offline banner, the new-version prompt and, for drivers, the queue's status line and sheet.
// Its own chunk: the sign-in screen never loads it.

/** clock formats a time as the banner shows it (14:32). */
export function clock(ms: number | string): string {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
}

/** offlineBanner is the banner's text: "Offline — figures from 14:32". */
export function offlineBanner(cachedSince: number | null): string {
  return cachedSince === null ? "Offline" : `Offline — figures from ${clock(cachedSince)}`;
}

function whenTapped(iso: string): string {
  const d = new Date(iso);
  const today = new Date().toDateString() === d.toDateString();
  return today ? clock(iso) : `${d.toLocaleDateString([], { month: "short", day: "numeric" })} ${clock(iso)}`;
}

/** FieldBar: see the file comment. */
export function FieldBar({ user }: { user: User }) {
  const qc = useQueryClient();
  const { pathname } = useLocation();
  const driver = !isAdminRole(user.role) && !isLiaisonRole(user.role);

  React.useEffect(() => persistReads(qc, user.id), [qc, user.id]);
  React.useEffect(() => {
    // after the first screen: the precache downloads while the user reads it
    const idle = window.requestIdleCallback ?? ((f: () => void) => setTimeout(f, 1000));
    idle(() => startServiceWorker());
  }, []);
  React.useEffect(() => void checkForUpdate(), [pathname]);
  React.useEffect(() => {
    const online = () => void qc.invalidateQueries();
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [qc]);
  React.useEffect(() => {
    start(user.id, {
      hooks: {
        onSent: (item, answer) => {
          if (item.kind === "photo") void qc.invalidateQueries({ queryKey: ["/api/photos"] });
          else void afterWrite(qc, item.kind === "pickup" || item.kind === "dropoff" ? "driverOps" : "activity", answer);
        },
      },
    });
  }, [qc, user.id]);

  return (
    <div className="mx-auto w-full max-w-7xl space-y-2 px-4 pt-2 empty:hidden">
      <UpdatePrompt />
      <OfflineBanner />
      {driver && <QueueStatus />}
    </div>
  );
}

function UpdatePrompt() {
  const available = useUpdateAvailable();
  const [warn, setWarn] = React.useState(false);
  if (!available) return null;
  return (
    <div role="status" className="flex flex-wrap items-center gap-2 rounded-md border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-900">
      <RefreshCwIcon aria-hidden className="size-4" />
      <span className="flex-1">A new version is available</span>
      {warn && <span className="w-full text-xs">Finish or clear the form you are filling in first, or tap Reload again.</span>}
      <Button
        size="sm"
        onClick={() => {
          if (!warn && hasHalfFilledForm()) setWarn(true);
          else applyUpdate();
        }}
      >
        Reload
      </Button>
    </div>
  );
}

function OfflineBanner() {
  const s = useOfflineState();
  if (!isOffline(s)) return null;
  return (
    <div role="status" className="flex items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900">
      <CloudOffIcon aria-hidden className="size-4" />
      {offlineBanner(s.cachedSince)}
    </div>
  );
}

function QueueStatus() {
  const s = useOutbox();
  const [open, setOpen] = React.useState(false);
  const hint = React.useId();
  const line = statusLine(s);
  if (!line) return null;
  return (
    <>
      <div className="flex items-center gap-2">
        <button
          type="button"
          onClick={() => setOpen(true)}
          className="flex min-h-9 flex-1 items-center gap-2 rounded-md border bg-card px-3 py-1.5 text-left text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          aria-describedby={hint}
        >
          <InboxIcon aria-hidden className="size-4 text-muted-foreground" />
          <span data-testid="outbox-status" className="flex-1">
            {line}
          </span>
          <span className="text-xs text-muted-foreground underline">Show</span>
        </button>
        {/* named by what it shows, the line and "Show" (SC 2.5.3) */}
        <Hint id={hint}>Shows the queue of your actions</Hint>
        {s.paused && (
          <Button size="sm" onClick={() => window.location.assign(paths.auth.path)}>
            Sign in
          </Button>
        )}
      </div>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-h-[85dvh] overflow-y-auto">
          <DialogHeader>
            <DialogTitle>Your actions</DialogTitle>
            <DialogDescription>Actions are kept on this phone until the server has recorded them.</DialogDescription>
          </DialogHeader>
          <QueueList items={s.items} sent={s.sent} sendingSeq={s.sending ? s.items.find((x) => x.status === "sending")?.seq : undefined} />
        </DialogContent>
      </Dialog>
    </>
  );
}

function QueueList({ items, sent, sendingSeq }: { items: StoredItem[]; sent: (StoredItem & { sentAt: string })[]; sendingSeq?: number }) {
  if (items.length === 0 && sent.length === 0) return <p className="text-sm text-muted-foreground">Nothing waiting.</p>;
  return (
    <ul aria-label="Queued actions" className="space-y-2">
      {items.map((item) => (
        <QueueRow key={item.seq} item={item} sending={item.seq === sendingSeq} />
      ))}
      {[...sent].reverse().map((item) => (
        <li key={`sent-${item.seq}`} className="flex items-center gap-2 rounded-md border p-2 text-sm">
          <span className="flex-1">
            {itemLabel(item)}
            <span className="block text-xs text-muted-foreground">Tapped {whenTapped(item.occurredAt)}</span>
          </span>
          <Badge variant="success">sent</Badge>
        </li>
      ))}
    </ul>
  );
}

/** EDITABLE lists the number fields Edit & resend offers per kind. */
const EDITABLE: Record<string, [string, string][]> = {
  pickup: [["quantity", "Quantity"]],
  dropoff: [
    ["goodBatteries", "Good Batteries"],
    ["deadBatteries", "Dead Batteries"],
  ],
  rebalance: [["quantity", "Quantity"]],
  retrieves_repairs_dropoff: [["quantity", "Quantity"]],
  photo: [],
};

function QueueRow({ item, sending }: { item: StoredItem; sending: boolean }) {
  const [editing, setEditing] = React.useState(false);
  const [values, setValues] = React.useState<Record<string, string>>({});
  const fields = EDITABLE[item.kind] ?? [];
  const state = item.status === "refused" ? "refused" : sending ? "sending" : "waiting";
  return (
    <li className="space-y-2 rounded-md border p-2 text-sm" aria-label={`${itemLabel(item)}, ${state}`}>
      <div className="flex items-center gap-2">
        <span className="flex-1">
          {itemLabel(item)}
          <span className="block text-xs text-muted-foreground">Tapped {whenTapped(item.occurredAt)}</span>
        </span>
        <Badge variant={state === "refused" ? "destructive" : state === "sending" ? "secondary" : "warning"}>{state}</Badge>
      </div>
      {item.status === "refused" && (
        <>
          <p className="text-destructive">{item.error}</p>
          {editing ? (
            <form
              className="grid gap-2"
              aria-label="Edit and resend"
              onSubmit={(e) => {
                e.preventDefault();
                const body = { ...item.body };
                for (const [name] of fields) {
                  const v = values[name];
                  if (v !== undefined && v.trim() !== "") body[name] = Number(v);
                }
                setEditing(false);
                void resend(item.seq, body);
              }}
            >
              <div className="grid grid-cols-2 gap-2">
                {fields.map(([name, label]) => (
                  <div key={name} className="space-y-1">
                    <Label htmlFor={`edit-${item.seq}-${name}`}>{label}</Label>
                    <Input
                      id={`edit-${item.seq}-${name}`}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      defaultValue={String(item.body[name] ?? "")}
                      onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
                    />
                  </div>
                ))}
              </div>
              <div className="flex gap-2">
                <Button type="submit" size="sm">
                  Resend
                </Button>
                <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(false)}>
                  Cancel
                </Button>
              </div>
            </form>
          ) : (
            <div className="flex gap-2">
              <Button size="sm" variant="outline" onClick={() => void discard(item.seq)}>
                Discard
              </Button>
              <Button size="sm" onClick={() => (fields.length > 0 ? setEditing(true) : void resend(item.seq, item.body))}>
                Edit &amp; resend
              </Button>
            </div>
          )}
        </>
      )}
    </li>
  );
}
