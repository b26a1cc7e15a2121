import { CopyIcon } from "lucide-react";
import * as React from "react";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import {
  type HeadOfficeToken,
  MAX_TOKEN_NAME,
  tokenNameError,
  useHeadOfficeTokens,
  useIssueToken,
  useRevokeToken,
} from "@/features/headoffice/api/tokens";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { formatDateTimeYear } from "@/lib/format";
import { newIdempotencyKey } from "@/lib/idempotency";
import { toastError } from "@/lib/toast-error";

/**
 * HeadOfficeCard is the System page's Head office block (master admins; DESIGN.md §15, issue 45
 * item 4): issue a token for head office — shown once, to copy — list the tokens (name, last
 * four characters, who issued it, when it was last used) and revoke one. A token reads this
 * city's packs and recalls and starts a recall, nothing else; what head office does with it is
 * on the Audit List.
 */
export function HeadOfficeCard() {
  const ids = React.useId();
  const tokens = useHeadOfficeTokens(true);
  const issue = useIssueToken();
  const [name, setName] = React.useState("");
  const [nameError, setNameError] = React.useState("");
  const [issued, setIssued] = React.useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = React.useState<HeadOfficeToken | null>(null);
  const key = React.useRef(newIdempotencyKey());
  // where focus goes when what had it goes away (the shown token's Done; a revoked token's
  // button, RevokeDialog): the name field, so a keyboard user is not dropped at the top of the page
  const nameField = React.useRef<HTMLInputElement>(null);
  const [refocus, setRefocus] = React.useState(false);
  React.useEffect(() => {
    if (refocus && !issued) {
      nameField.current?.focus();
      setRefocus(false);
    }
  }, [refocus, issued]);

  const submit = (ev: React.FormEvent) => {
    ev.preventDefault();
    const err = tokenNameError(name);
    setNameError(err);
    if (err) return;
    issue.mutate(
      { name, idempotencyKey: key.current },
      {
        onSuccess: (res) => {
          key.current = newIdempotencyKey();
          setIssued({ name: res.info.name, token: res.token });
          setName("");
        },
        onError: (e) => {
          key.current = newIdempotencyKey();
          setNameError(errorMessage(e, "Could not issue the token"));
        },
      },
    );
  };

  const list = tokens.data ?? [];
  return (
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader>
        <CardTitle id={`${ids}-title`}>Head office</CardTitle>
        <CardDescription>
          A head-office token lets your head office read this city&apos;s packs and recalls and start a recall — nothing else. It acts
          with your rights for those alone, and what head office does with it is on the Audit List. Revoke it at any time.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {issued ? (
          <IssuedToken
            name={issued.name}
            token={issued.token}
            onDone={() => {
              setIssued(null);
              setRefocus(true);
            }}
          />
        ) : (
          <form className="grid gap-2 sm:grid-cols-[1fr_auto] sm:items-end" onSubmit={submit} noValidate>
            <div className="grid gap-1.5">
              <Label htmlFor={`${ids}-name`}>Token name</Label>
              <Input
                id={`${ids}-name`}
                ref={nameField}
                value={name}
                maxLength={MAX_TOKEN_NAME + 20}
                autoComplete="off"
                placeholder="Head office, Berlin"
                aria-invalid={nameError !== ""}
                aria-describedby={nameError ? `${ids}-name-error` : undefined}
                onChange={(e) => {
                  setName(e.target.value);
                  if (nameError) setNameError("");
                }}
              />
            </div>
            <Button type="submit" disabled={issue.isPending}>
              {issue.isPending && <Spinner label="Issuing" />}
              Issue token
            </Button>
            {nameError && (
              <p id={`${ids}-name-error`} role="alert" className="text-sm text-destructive sm:col-span-2">
                {nameError}
              </p>
            )}
          </form>
        )}

        {tokens.isError ? (
          <p className="text-sm text-destructive">Could not load the head-office tokens.</p>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">{tokens.isPending ? "Loading..." : "No head-office tokens yet."}</p>
        ) : (
          <ul className="grid gap-3" aria-label="Head-office tokens">
            {list.map((t) => (
              <li key={t.id} className="grid gap-2 rounded-md border p-3 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium [overflow-wrap:anywhere]">{t.name}</span>
                  <span className="font-mono text-muted-foreground">…{t.hint}</span>
                  {t.revokedAt ? <Badge variant="secondary">Revoked</Badge> : <Badge>Active</Badge>}
                </div>
                <dl className="grid grid-cols-[5.5rem_1fr] gap-x-3 gap-y-0.5 text-muted-foreground">
                  <dt>Issued</dt>
                  <dd className="[overflow-wrap:anywhere]">
                    {formatDateTimeYear(t.issuedAt)} by {t.issuedBy || "unknown"}
                  </dd>
                  <dt>Last used</dt>
                  <dd>{t.lastUsedAt ? formatDateTimeYear(t.lastUsedAt) : "Never"}</dd>
                  {t.revokedAt && (
                    <>
                      <dt>Revoked</dt>
                      <dd className="[overflow-wrap:anywhere]">
                        {formatDateTimeYear(t.revokedAt)} by {t.revokedBy || "unknown"}
                      </dd>
                    </>
                  )}
                </dl>
                {!t.revokedAt && (
                  <div>
                    <Button variant="outline" size="sm" aria-label={`Revoke ${t.name}`} onClick={() => setRevoking(t)}>
                      Revoke
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <RevokeDialog token={revoking} onClose={() => setRevoking(null)} focusAfterRevoke={() => nameField.current?.focus()} />
    </Card>
  );
}

/** IssuedToken shows a new token once, to copy; Done hides it for good. */
function IssuedToken({ name, token, onDone }: { name: string; token: string; onDone: () => void }) {
  const ids = React.useId();
  const field = React.useRef<HTMLInputElement>(null);
  React.useEffect(() => field.current?.select(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token);
      toast({ title: "Token copied" });
    } catch {
      field.current?.select();
      toast({ title: "Copy it by hand", description: "The browser did not allow copying: the token is selected." });
    }
  };
  return (
    <Alert>
      <AlertTitle>Token for {name}</AlertTitle>
      <AlertDescription className="grid gap-2">
        <p>Copy it now: it is shown only once. Give it to head office; they send it as a Bearer token.</p>
        <Label htmlFor={`${ids}-token`} className="sr-only">
          Head-office token
        </Label>
        <div className="flex w-full max-w-2xl gap-2">
          <Input id={`${ids}-token`} ref={field} readOnly value={token} className="flex-1 font-mono text-xs" onFocus={(e) => e.target.select()} />
          <Button type="button" variant="outline" onClick={() => void copy()}>
            <CopyIcon aria-hidden="true" />
            Copy
          </Button>
        </div>
        <div>
          <Button type="button" variant="secondary" onClick={onDone}>
            Done
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}

/** RevokeDialog confirms a revocation; token null means closed. */
function RevokeDialog({ token, onClose, focusAfterRevoke }: { token: HeadOfficeToken | null; onClose: () => void; focusAfterRevoke: () => void }) {
  const revoke = useRevokeToken();
  const run = () => {
    if (!token) return;
    revoke.mutate(
      { id: token.id, idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: (res) => {
          toast({ title: res.message || "Token revoked." });
          onClose();
        },
        onError: (e) => toastError(e, "Could not revoke the token"),
      },
    );
  };
  return (
    <AlertDialog open={token !== null} onOpenChange={(o) => !o && !revoke.isPending && onClose()}>
      <AlertDialogContent
        onCloseAutoFocus={(e) => {
          // the Revoke button that opened it is gone once the token is revoked: focus goes to the
          // card's name field (once the dialog has let focus go, so it is not pulled back in)
          if (!revoke.isSuccess) return;
          e.preventDefault();
          focusAfterRevoke();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>Revoke token</AlertDialogTitle>
          <AlertDialogDescription>
            Revoke <strong>{token?.name}</strong> (…{token?.hint})? Head office can no longer use it, from the next request on. This
            cannot be undone: issue a new token if they need one.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={revoke.isPending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" disabled={revoke.isPending} onClick={run}>
            {revoke.isPending && <Spinner label="Revoking" />}
            Revoke
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
