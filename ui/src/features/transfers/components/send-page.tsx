import * as React from "react";
import { useNavigate } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { ActionBar } from "@/components/layouts/action-bar";
import { PageHeader } from "@/components/layouts/app-shell";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { paths } from "@/config/paths";
import { PackScanField } from "@/features/scan";
import { useSendPacks } from "@/features/transfers/api/transfers";
import { transferPath, packsWord } from "@/features/transfers/utils/paths";
import { toast } from "@/hooks/use-toast";
import { ApiError } from "@/lib/api-client";
import { newIdempotencyKey } from "@/lib/idempotency";
import { toastError } from "@/lib/toast-error";

/** SendPage is /packs/transfers/send: an admin sends packs in the bay to another city (issue 45 item 6). */
export function SendPage() {
  const ids = React.useId();
  const navigate = useNavigate();
  const send = useSendPacks();
  const [toCity, setToCity] = React.useState("");
  const [toAddress, setToAddress] = React.useState("");
  const [fromCity, setFromCity] = React.useState("");
  const [notes, setNotes] = React.useState("");
  const [serials, setSerials] = React.useState<string[]>([]);
  const [refused, setRefused] = React.useState<Record<string, string>>({});
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [fieldError, setFieldError] = React.useState<{ field: string; message: string } | null>(null);
  const [confirming, setConfirming] = React.useState(false);
  const key = React.useRef<string | null>(null);

  const city = toCity.trim();
  const blocked = Object.keys(refused).length > 0;
  const canSend = city.length > 0 && serials.length > 0 && !blocked && !send.isPending;

  function doSend() {
    key.current ??= newIdempotencyKey();
    send.mutate(
      { toCity: city, toAddress: toAddress.trim(), fromCity: fromCity.trim(), notes, serials, idempotencyKey: key.current },
      {
        onSuccess: (res) => {
          key.current = null;
          setConfirming(false);
          setSerials([]);
          toast({ title: res.message });
          void navigate(transferPath(res.transfer.id));
        },
        onError: (e) => {
          if (e instanceof ApiError && e.status >= 400 && e.status < 500) key.current = null;
          setConfirming(false);
          if (e instanceof ApiError) {
            const data = (e.data ?? {}) as Record<string, unknown> & { packs?: { serial: string; message: string }[] };
            setErrors(Object.fromEntries((data.packs ?? []).map((p) => [p.serial, p.message])));
            const field = ["toCity", "toAddress"].find((f) => f in data);
            if (field) setFieldError({ field, message: e.serverMessage });
          }
          toastError(e, "Could not send the packs");
        },
      },
    );
  }

  const err = (field: string) => (fieldError?.field === field ? fieldError.message : "");
  // a field the server refused is edited: its refusal goes
  const edited = (set: (value: string) => void) => (e: React.ChangeEvent<HTMLInputElement>) => {
    set(e.target.value);
    setFieldError(null);
  };

  return (
    <>
      <PageHeader title="Send to another city" description="The packs leave this city's counts and cannot be used here until the other city receives them.">
        <ButtonLink variant="ghost" to={paths.transfers.path}>All transfers</ButtonLink>
      </PageHeader>
      <form
        className="space-y-4 pb-24"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!city) setFieldError({ field: "toCity", message: "City is required" });
          else if (canSend) setConfirming(true);
        }}
      >
        <Card>
          <CardContent className="grid gap-4">
            <TextField id={`${ids}-city`} label="City" error={err("toCity")} value={toCity} maxLength={100} onChange={edited(setToCity)} />
            <TextField
              id={`${ids}-address`}
              label="Its SwapBay address (optional)"
              error={err("toAddress")}
              type="url"
              inputMode="url"
              placeholder="https://"
              value={toAddress}
              onChange={edited(setToAddress)}
            />
            <TextField id={`${ids}-from`} label="This city's name on the manifest (optional)" value={fromCity} maxLength={100} onChange={(e) => setFromCity(e.target.value)} />
          </CardContent>
        </Card>
        <Card>
          <CardContent className="grid gap-4">
            <PackScanField
              id="transfers.send"
              label="Packs"
              value={serials}
              onChange={(next) => {
                setSerials(next);
                setErrors({});
              }}
              purpose="handout"
              errors={errors}
              onRefused={setRefused}
              disabled={send.isPending}
            />
            <div className="grid gap-1.5">
              <Label htmlFor={`${ids}-notes`}>Notes (optional)</Label>
              <Textarea id={`${ids}-notes`} value={notes} maxLength={2000} rows={2} onChange={(e) => setNotes(e.target.value)} />
            </div>
          </CardContent>
        </Card>
        <ActionBar>
          <Button type="submit" disabled={!canSend && city.length > 0}>
            {serials.length > 0 ? `Send ${packsWord(serials.length)}` : "Send"}
          </Button>
        </ActionBar>
      </form>

      <AlertDialog open={confirming} onOpenChange={(o) => !o && !send.isPending && setConfirming(false)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>
              Send {packsWord(serials.length)} to {city}?
            </AlertDialogTitle>
            <AlertDialogDescription>
              {serials.length === 1 ? "Its battery leaves" : `Their ${serials.length} batteries leave`} this city's counts, and the packs are in transit until {city}{" "}
              receives them. Deleting the transfer on the Activity page brings them back.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={send.isPending}>Cancel</AlertDialogCancel>
            <Button disabled={send.isPending} onClick={doSend}>
              {send.isPending && <Spinner label="Sending" />}
              Send
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

/** TextField is one of the send's typed fields: its label, the input (no autocomplete), and the server's refusal of it under it. */
function TextField({ id, label, error, ...input }: React.ComponentProps<typeof Input> & { id: string; label: string; error?: string }) {
  return (
    <div className="grid gap-1.5 sm:max-w-sm">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} autoComplete="off" aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...input} />
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
