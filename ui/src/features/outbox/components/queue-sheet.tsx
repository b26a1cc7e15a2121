import { InboxIcon } from "lucide-react";
import * as React from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Hint } from "@/components/ui/hint";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { paths } from "@/config/paths";
import { actionOf, editedBody, serials } from "@/features/outbox/api/actions";
import { type StoredItem, discard, resend, resume } from "@/features/outbox/api/outbox";
import { itemLabel, statusLine, useOutbox } from "@/features/outbox/hooks/use-outbox";
import { formatDateTime, formatTime, today } from "@/lib/format";
import { type User, isAdminRole, isLiaisonRole } from "@/lib/user";

// The outbox's queue on screen (DESIGN.md §12, issue 27), in the field bar of every signed-in
// screen: for drivers, the queue's status line and its sheet (each item's state; Discard, Edit & resend for a refused
// one). Its own chunk, loaded after the first screen (app/routes/signed-in.tsx); the outbox itself
// runs from the shell's start (hooks/use-outbox-start.ts), so a tap before this loads is kept.

/** whenTapped is an action's tap time in the operation's time zone: '2:32 PM' today, else 'Nov 24, 2:32 PM'. */
export function whenTapped(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  return today(d) === today(now) ? formatTime(d) : formatDateTime(d);
}


/** othersText tells a driver about the actions another account left on this phone. */
export function othersText(n: number): string {
  return `${n} ${n === 1 ? "action" : "actions"} recorded on this phone by another account ${n === 1 ? "waits" : "wait"} here: ${n === 1 ? "it is" : "they are"} sent when that account signs in on this phone. If that account was deleted, ask an admin.`;
}

/** OutboxQueue shows a driver the queue: see the file comment. */
export function OutboxQueue({ user }: { user: User }) {
  const driver = !isAdminRole(user.role) && !isLiaisonRole(user.role);
  return driver ? <QueueStatus /> : null;
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
        {s.paused === "signin" && (
          <Button size="sm" onClick={() => window.location.assign(paths.auth.path)}>
            Sign in
          </Button>
        )}
        {(s.paused === "terms" || s.paused === "account") && (
          <Button size="sm" variant="outline" onClick={() => resume()}>
            Try again
          </Button>
        )}
      </div>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-h-[85dvh] overflow-y-auto">
          <DialogHeader>
            <DialogTitle>Your actions</DialogTitle>
            <DialogDescription>Actions are kept on this phone until the server has recorded them.</DialogDescription>
          </DialogHeader>
          {s.others > 0 && (
            <p data-testid="outbox-others" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {othersText(s.others)}
            </p>
          )}
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

function QueueRow({ item, sending }: { item: StoredItem; sending: boolean }) {
  const [editing, setEditing] = React.useState(false);
  const [values, setValues] = React.useState<Record<string, string>>({});
  const [removed, setRemoved] = React.useState<Record<string, string[]>>({});
  const fields = actionOf(item.kind)?.edit ?? [];
  // the pack lists the item carries (DESIGN.md §14): kept on resend, a pack can be removed
  const packLists = (actionOf(item.kind)?.packs ?? []).filter(([name]) => serials(item.body[name]).length > 0);
  const editable = fields.length > 0 || packLists.length > 0;
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
                setEditing(false);
                void resend(item.seq, editedBody(item.body, values, removed));
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
              {packLists.map(([name, label]) => {
                const gone = removed[name] ?? [];
                const listed = serials(item.body[name]).filter((s) => !gone.includes(s));
                const refused = new Map((item.packs ?? []).map((p) => [p.serial.toUpperCase(), p.message || item.error]));
                return (
                  <div key={name} className="space-y-1">
                    <p className="text-xs text-muted-foreground">{label}</p>
                    <ul aria-label={label} className="divide-y rounded-md border">
                      {listed.map((serial) => (
                        <li key={serial} className="flex items-center gap-2 px-2 py-1">
                          <span className="min-w-0 flex-1">
                            <span className="font-mono break-all">{serial}</span>
                            {refused.has(serial.toUpperCase()) && <span className="block text-xs text-destructive">{refused.get(serial.toUpperCase())}</span>}
                          </span>
                          <Button
                            type="button"
                            size="sm"
                            variant="ghost"
                            aria-label={`Remove ${serial}`}
                            onClick={() => setRemoved((r) => ({ ...r, [name]: [...gone, serial] }))}
                          >
                            Remove
                          </Button>
                        </li>
                      ))}
                    </ul>
                  </div>
                );
              })}
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
              <Button size="sm" onClick={() => (editable ? setEditing(true) : void resend(item.seq, item.body))}>
                Edit &amp; resend
              </Button>
            </div>
          )}
        </>
      )}
    </li>
  );
}
