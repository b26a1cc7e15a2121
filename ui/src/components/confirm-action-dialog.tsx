// The Confirm Action dialog (spec part 1 §2): shown before every submit or destructive
// action. It shows the quantities, asks 'Are you sure?', and offers Cancel, Confirm and —
// except for corrections and deletes, or when the caller disallows it — Edit, which makes
// the quantities editable before confirming. It owns the action's idempotency key.
import { PencilIcon } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { newIdempotencyKey } from "@/lib/idempotency";

/** ConfirmActionType is what is being confirmed (spec part 1 §2). */
export type ConfirmActionType =
  | "pickup"
  | "dropoff"
  | "charge"
  | "driver_swap"
  | "two_way_swap"
  | "charging_edit"
  | "edit"
  | "delete";

/**
 * ConfirmValues are the quantities shown (and, with Edit, changed). Which ones a type uses:
 * - pickup, charge, charging_edit (the new quantity), delete: `quantity`
 * - dropoff, driver_swap, edit: `goodBatteries`, `deadBatteries` (edit of a pickup or an
 *   adjustment passes `quantity` instead: its Total)
 * - two_way_swap: `goodBatteries`, `deadBatteries` (given) and `returnGoodBatteries`,
 *   `returnDeadBatteries` (given back)
 * onConfirm receives the same shape, with the edited numbers.
 */
export type ConfirmValues = {
  quantity?: number;
  goodBatteries?: number;
  deadBatteries?: number;
  returnGoodBatteries?: number;
  returnDeadBatteries?: number;
};

/** ConfirmActionDetails are the words around the numbers; every field is optional. */
export type ConfirmActionDetails = {
  /** fromName gives, toName receives (driver_swap, two_way_swap). */
  fromName?: string;
  toName?: string;
  /** chargerType is the charger of a charge ('5A'). */
  chargerType?: string;
  /** previousQuantity and destination describe a charging_edit: 'from 5 to 3, 2 go to Ready'. */
  previousQuantity?: number;
  destination?: "ready" | "waiting";
  /** subject names what an edit or delete acts on ('Dropoff by Ann Lee, Jan 5, 3:05 PM'). */
  subject?: string;
  /** notes are shown as they will be saved (dropoff, pickup, edit). */
  notes?: string;
};

/** ConfirmActionDialogProps configure the dialog; the parent owns `open`. */
export type ConfirmActionDialogProps = {
  open: boolean;
  /** onOpenChange is called with false on Cancel, Escape or the X; ignored while pending. */
  onOpenChange: (open: boolean) => void;
  type: ConfirmActionType;
  /** values are the quantities as the form holds them (copied into the editor on Edit). */
  values: ConfirmValues;
  details?: ConfirmActionDetails;
  /** allowEdit (default true) shows the Edit button; never shown for edit and delete. */
  allowEdit?: boolean;
  /** pending disables the buttons and shows a spinner on Confirm while the request runs. */
  pending?: boolean;
  /**
   * error is the last attempt's failure, shown inside the dialog (a toast sits outside the
   * modal, hidden from assistive tech while it is open). Reset it when the dialog opens.
   */
  error?: string | null;
  /** title overrides the default title ('Confirm Pickup', …). */
  title?: string;
  /**
   * onConfirm receives the (possibly edited) values and the action's Idempotency-Key. The
   * key is made on the first Confirm and reused for every further Confirm of the same values
   * while the dialog stays open (a retry after a failure records once); edited values get a
   * new key. Close the dialog on success; keep it open on failure so Confirm retries.
   */
  onConfirm: (values: ConfirmValues, idempotencyKey: string) => void;
};

type FieldName = keyof ConfirmValues;

const FIELD_LABELS: Record<FieldName, string> = {
  quantity: "Quantity",
  goodBatteries: "Good Batteries",
  deadBatteries: "Dead Batteries",
  returnGoodBatteries: "Return Good Batteries",
  returnDeadBatteries: "Return Dead Batteries",
};

const TITLES: Record<ConfirmActionType, string> = {
  pickup: "Confirm Pickup",
  dropoff: "Confirm Dropoff",
  charge: "Confirm Charging Session",
  driver_swap: "Confirm Driver Swap",
  two_way_swap: "Confirm Battery Exchange",
  charging_edit: "Confirm Quantity Change",
  edit: "Confirm Correction",
  delete: "Confirm Delete",
};

/** confirmFields lists the quantity fields a type shows, given the values passed in. */
export function confirmFields(type: ConfirmActionType, values: ConfirmValues): FieldName[] {
  switch (type) {
    case "pickup":
    case "charge":
    case "charging_edit":
    case "delete":
      return ["quantity"];
    case "dropoff":
    case "driver_swap":
      return ["goodBatteries", "deadBatteries"];
    case "two_way_swap":
      return ["goodBatteries", "deadBatteries", "returnGoodBatteries", "returnDeadBatteries"];
    case "edit":
      return values.quantity !== undefined && values.goodBatteries === undefined
        ? ["quantity"]
        : ["goodBatteries", "deadBatteries"];
  }
}

/** canEdit reports whether the Edit button shows for type (never for edit and delete). */
export function canEdit(type: ConfirmActionType, allowEdit = true): boolean {
  return allowEdit && type !== "edit" && type !== "delete";
}

/**
 * validateConfirmDraft checks edited quantities: each a whole number 0 or more (blank is
 * 0), and something to move — the given batteries (good + dead, or the quantity) above 0,
 * except for a charging_edit, which may go to 0. Returns the parsed values or an error text.
 */
export function validateConfirmDraft(
  type: ConfirmActionType,
  fields: FieldName[],
  draft: Partial<Record<FieldName, string>>,
): { values: ConfirmValues } | { error: string } {
  const values: ConfirmValues = {};
  for (const f of fields) {
    const raw = (draft[f] ?? "").trim();
    const n = raw === "" ? 0 : Number(raw);
    if (!Number.isInteger(n) || n < 0) return { error: `${FIELD_LABELS[f]}: Must be a valid number 0 or greater` };
    values[f] = n;
  }
  const given = (values.quantity ?? 0) + (values.goodBatteries ?? 0) + (values.deadBatteries ?? 0);
  if (type !== "charging_edit" && given <= 0) return { error: "Total batteries must be greater than 0" };
  return { values };
}

function n(v: number | undefined): number {
  return v ?? 0;
}

function plural(count: number): string {
  return `${count} ${count === 1 ? "battery" : "batteries"}`;
}

/** ConfirmSummary is the sentence above the figures. */
function ConfirmSummary({ type, values, details }: { type: ConfirmActionType; values: ConfirmValues; details: ConfirmActionDetails }) {
  const from = details.fromName || "The giving driver";
  const to = details.toName || "the receiving driver";
  const given = n(values.goodBatteries) + n(values.deadBatteries);
  switch (type) {
    case "pickup":
      return <p>You are picking up {plural(n(values.quantity))} from the Ready pool.</p>;
    case "dropoff":
      return (
        <p>
          You are dropping off {plural(given)}: good batteries go to Ready, dead batteries go to Waiting.
        </p>
      );
    case "charge":
      return (
        <p>
          Start charging {plural(n(values.quantity))}
          {details.chargerType ? ` on a ${details.chargerType} charger` : ""}. They move from Waiting to Charging.
        </p>
      );
    case "driver_swap":
      return (
        <p>
          <strong>{from}</strong> gives <strong>{to}</strong> {plural(given)} ({n(values.goodBatteries)} good,{" "}
          {n(values.deadBatteries)} dead).
        </p>
      );
    case "two_way_swap":
      return (
        <p>
          <strong>{from}</strong> and <strong>{to}</strong> exchange batteries.
        </p>
      );
    case "charging_edit": {
      const before = details.previousQuantity;
      const after = n(values.quantity);
      if (before === undefined) return <p>Change the session's quantity to {after}.</p>;
      const moved = Math.abs(before - after);
      const where = after < before ? (details.destination === "ready" ? "Ready" : "Waiting") : null;
      return (
        <p>
          Change the session's quantity from {before} to {after}.{" "}
          {where ? `${plural(moved)} go to ${where}.` : after > before ? `${plural(moved)} are taken from Waiting.` : ""}
        </p>
      );
    }
    case "edit":
      return (
        <p>
          Correct {details.subject ? <strong>{details.subject}</strong> : "this movement"}. Affected balances are
          recalculated.
        </p>
      );
    case "delete":
      return (
        <p>
          Delete {details.subject ? <strong>{details.subject}</strong> : "this movement"} ({plural(n(values.quantity))}).
          Its batteries return to their original location.
        </p>
      );
  }
}

/** figureCaption labels one figure; a two-way swap says who gives whom. */
function figureCaption(type: ConfirmActionType, field: FieldName, details: ConfirmActionDetails): string {
  if (type === "two_way_swap") {
    const from = details.fromName || "Giver";
    const to = details.toName || "Receiver";
    if (field === "goodBatteries") return `${from} gives ${to}: good`;
    if (field === "deadBatteries") return `${from} gives ${to}: dead`;
    if (field === "returnGoodBatteries") return `${to} returns to ${from}: good`;
    return `${to} returns to ${from}: dead`;
  }
  if (type === "charging_edit" && field === "quantity") return "New Quantity";
  if (field === "quantity" && (type === "edit" || type === "delete")) return "Total";
  return FIELD_LABELS[field];
}

/**
 * ConfirmActionDialog asks 'Are you sure?' before an action and hands the (possibly
 * edited) values and a stable idempotency key to onConfirm. See ConfirmActionDialogProps.
 */
export function ConfirmActionDialog(props: ConfirmActionDialogProps) {
  const { open, onOpenChange, pending = false } = props;
  return (
    <Dialog open={open} onOpenChange={(next) => (pending && !next ? undefined : onOpenChange(next))}>
      {open && <ConfirmActionContent {...props} />}
    </Dialog>
  );
}

// The content is mounted per opening, so the edit state and the key start afresh each time.
function ConfirmActionContent({
  onOpenChange,
  type,
  values,
  details = {},
  allowEdit = true,
  pending = false,
  error: failure,
  title,
  onConfirm,
}: ConfirmActionDialogProps) {
  const fields = confirmFields(type, values);
  const [editing, setEditing] = React.useState(false);
  const [draft, setDraft] = React.useState<Partial<Record<FieldName, string>>>({});
  const [error, setError] = React.useState<string | null>(null);
  const attempt = React.useRef<{ signature: string; key: string } | null>(null);
  const ids = React.useId();

  const startEditing = () => {
    setDraft(Object.fromEntries(fields.map((f) => [f, String(values[f] ?? 0)])));
    setError(null);
    setEditing(true);
  };

  const confirm = () => {
    let confirmed: ConfirmValues = Object.fromEntries(fields.map((f) => [f, values[f] ?? 0]));
    if (editing) {
      const result = validateConfirmDraft(type, fields, draft);
      if ("error" in result) {
        setError(result.error);
        return;
      }
      confirmed = result.values;
    }
    setError(null);
    const signature = JSON.stringify(confirmed);
    if (!attempt.current || attempt.current.signature !== signature) {
      attempt.current = { signature, key: newIdempotencyKey() };
    }
    onConfirm(confirmed, attempt.current.key);
  };

  const destructive = type === "delete";
  return (
    <DialogContent
      onInteractOutside={(e) => pending && e.preventDefault()}
      onEscapeKeyDown={(e) => pending && e.preventDefault()}
      hideClose={pending}
    >
      <DialogHeader>
        <DialogTitle>{title ?? TITLES[type]}</DialogTitle>
        <DialogDescription asChild>
          <div className="space-y-1 text-sm text-foreground">
            <ConfirmSummary type={type} values={values} details={details} />
          </div>
        </DialogDescription>
      </DialogHeader>

      <form
        id={`${ids}-form`}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          confirm();
        }}
      >
        <dl className="grid grid-cols-1 gap-2 rounded-md border bg-muted/40 p-3 text-sm sm:grid-cols-2">
          {fields.map((f) => {
            const caption = figureCaption(type, f, details);
            const inputId = `${ids}-${f}`;
            return (
              <div key={f} className="flex items-center justify-between gap-3">
                {editing ? (
                  <>
                    <Label htmlFor={inputId} className="font-normal text-muted-foreground">
                      {caption}
                    </Label>
                    <Input
                      id={inputId}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      step={1}
                      className="w-24"
                      value={draft[f] ?? ""}
                      disabled={pending}
                      aria-invalid={error ? true : undefined}
                      onChange={(e) => setDraft((d) => ({ ...d, [f]: e.target.value }))}
                    />
                  </>
                ) : (
                  <>
                    <dt className="text-muted-foreground">{caption}</dt>
                    <dd className="text-lg font-semibold tabular-nums">{values[f] ?? 0}</dd>
                  </>
                )}
              </div>
            );
          })}
        </dl>
        {details.notes && (
          <p className="mt-3 text-sm break-words">
            <span className="text-muted-foreground">Notes: </span>
            {details.notes}
          </p>
        )}
        {(error || failure) && (
          <p role="alert" className="mt-2 text-sm text-destructive">
            {error || failure}
          </p>
        )}
      </form>

      <p className="font-medium">
        Are you sure?
      </p>

      <DialogFooter>
        <Button type="button" variant="outline" disabled={pending} onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        {canEdit(type, allowEdit) && !editing && (
          <Button type="button" variant="secondary" disabled={pending} onClick={startEditing}>
            <PencilIcon aria-hidden />
            Edit
          </Button>
        )}
        <Button type="submit" form={`${ids}-form`} variant={destructive ? "destructive" : "default"} disabled={pending}>
          {pending && <Spinner label="Saving" />}
          Confirm
        </Button>
      </DialogFooter>
    </DialogContent>
  );
}
