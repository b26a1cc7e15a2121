// The Confirm Action dialog (spec part 1 §2): shown before every submit or destructive
// action. It shows the quantities, asks 'Are you sure?', and offers Cancel, Confirm and —
// except for corrections and deletes, or when the caller disallows it — Edit, which makes
// the quantities editable before confirming. It owns the action's idempotency key. The
// sentence above the figures comes from the feature that asks (`summary`).
import { zodResolver } from "@hookform/resolvers/zod";
import { PencilIcon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import * as z from "zod/mini";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { count } from "@/lib/count";
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
 * ConfirmValues are the quantities shown (and, with Edit, changed): each one given is shown,
 * in this order. onConfirm receives the same fields, with the edited numbers.
 */
export type ConfirmValues = {
  quantity?: number;
  goodBatteries?: number;
  deadBatteries?: number;
  returnGoodBatteries?: number;
  returnDeadBatteries?: number;
};

/** ConfirmField is one quantity of ConfirmValues. */
export type ConfirmField = keyof ConfirmValues;

const FIELDS: readonly ConfirmField[] = ["quantity", "goodBatteries", "deadBatteries", "returnGoodBatteries", "returnDeadBatteries"];

const FIELD_LABELS: Record<ConfirmField, string> = {
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

/** ConfirmActionDialogProps configure the dialog; the parent owns `open`. */
export type ConfirmActionDialogProps = {
  open: boolean;
  /** onOpenChange is called with false on Cancel, Escape or the X; ignored while pending. */
  onOpenChange: (open: boolean) => void;
  type: ConfirmActionType;
  /** summary is the sentence above the figures, written by the feature ('Ann gives Bob 3 batteries…'). */
  summary: React.ReactNode;
  /** values are the quantities as the form holds them (copied into the editor on Edit). */
  values: ConfirmValues;
  /** labels rename figures (default 'Quantity', 'Good Batteries', …). */
  labels?: Partial<Record<ConfirmField, string>>;
  /** notes are shown as they will be saved. */
  notes?: string;
  /** packs are the packs the action names (DESIGN.md §14), shown as they will be sent. */
  packs?: readonly string[];
  /**
   * refused are the packs scanned that the rules refuse for this action, with why (issue 42
   * item 6): named here in red, and not sent.
   */
  refused?: readonly { serial: string; message: string }[];
  /** children is more of the action to settle before confirming (the packs coming off a charger). */
  children?: React.ReactNode;
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

/** confirmFields lists the figures shown: the fields values gives, in the usual order. */
export function confirmFields(values: ConfirmValues): ConfirmField[] {
  return FIELDS.filter((f) => values[f] !== undefined);
}

/** canEdit reports whether the Edit button shows for type (never for edit and delete). */
export function canEdit(type: ConfirmActionType, allowEdit = true): boolean {
  return allowEdit && type !== "edit" && type !== "delete";
}

type Draft = Partial<Record<ConfirmField, string>>;

/** NOTHING_TO_MOVE is the edited figures' message when no battery would move. */
export const NOTHING_TO_MOVE = "Total batteries must be greater than 0";

const editedCount = count({ blankIsZero: true, message: "Must be a valid number 0 or greater" });

/**
 * confirmDraftSchema checks edited figures: each a whole number 0 or more (blank is 0), and
 * something to move — the given batteries (good + dead, or the quantity) above 0, except for
 * a charging_edit, which may go to 0 (that message is the form's root error).
 */
export function confirmDraftSchema(type: ConfirmActionType, fields: readonly ConfirmField[]) {
  const shape = Object.fromEntries(fields.map((f) => [f, editedCount])) as Record<ConfirmField, typeof editedCount>;
  return z.object(shape).check(
    z.superRefine((v, ctx) => {
      const given = (v.quantity ?? 0) + (v.goodBatteries ?? 0) + (v.deadBatteries ?? 0);
      if (type !== "charging_edit" && given <= 0) ctx.addIssue({ code: "custom", path: ["root"], message: NOTHING_TO_MOVE });
    }),
  ) as unknown as z.ZodMiniType<ConfirmValues, Draft>; // the shape holds only the given fields
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
  summary,
  values,
  labels,
  notes,
  packs,
  refused,
  children,
  allowEdit = true,
  pending = false,
  error: failure,
  title,
  onConfirm,
}: ConfirmActionDialogProps) {
  const fields = confirmFields(values);
  const [editing, setEditing] = React.useState(false);
  const attempt = React.useRef<{ signature: string; key: string } | null>(null);
  const ids = React.useId();
  const schema = React.useMemo(() => confirmDraftSchema(type, fields), [type, fields.join()]); // eslint-disable-line react-hooks/exhaustive-deps
  const form = useForm<Draft, unknown, ConfirmValues>({ resolver: zodResolver(schema) });
  const nothing = form.formState.errors.root?.message;

  const confirm = (confirmed: ConfirmValues) => {
    const signature = JSON.stringify(confirmed);
    if (!attempt.current || attempt.current.signature !== signature) {
      attempt.current = { signature, key: newIdempotencyKey() };
    }
    onConfirm(confirmed, attempt.current.key);
  };
  const startEditing = () => {
    form.reset(Object.fromEntries(fields.map((f) => [f, String(values[f] ?? 0)])));
    setEditing(true);
  };
  const onSubmit = editing
    ? form.handleSubmit(confirm)
    : (e: React.FormEvent) => {
        e.preventDefault();
        confirm(Object.fromEntries(fields.map((f) => [f, values[f] ?? 0])));
      };

  const label = (f: ConfirmField) => labels?.[f] ?? FIELD_LABELS[f];
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
            <p>{summary}</p>
          </div>
        </DialogDescription>
      </DialogHeader>

      <Form {...form}>
        <form id={`${ids}-form`} noValidate onSubmit={onSubmit}>
          {editing ? (
            <div className="grid grid-cols-1 gap-2 rounded-md border bg-muted/40 p-3 text-sm sm:grid-cols-2">
              {fields.map((f) => (
                <FormField
                  key={f}
                  control={form.control}
                  name={f}
                  render={({ field }) => (
                    <FormItem className="grid-cols-[1fr_auto] items-center gap-x-3 gap-y-1">
                      <FormLabel className="font-normal text-muted-foreground">{label(f)}</FormLabel>
                      <FormControl>
                        <Input
                          type="number"
                          inputMode="numeric"
                          min={0}
                          step={1}
                          className="w-24"
                          disabled={pending}
                          {...field}
                          value={field.value ?? ""}
                        />
                      </FormControl>
                      <FormMessage className="col-span-2" />
                    </FormItem>
                  )}
                />
              ))}
            </div>
          ) : (
            <dl className="grid grid-cols-1 gap-2 rounded-md border bg-muted/40 p-3 text-sm sm:grid-cols-2">
              {fields.map((f) => (
                <div key={f} className="flex items-center justify-between gap-3">
                  <dt className="text-muted-foreground">{label(f)}</dt>
                  <dd className="text-lg font-semibold tabular-nums">{values[f] ?? 0}</dd>
                </div>
              ))}
            </dl>
          )}
          {packs && packs.length > 0 && (
            <p className="mt-3 text-sm break-words">
              <span className="text-muted-foreground">Packs: </span>
              {packs.join(", ")}
            </p>
          )}
          {refused && refused.length > 0 && (
            <div role="alert" className="mt-3 rounded-md border border-destructive/50 bg-destructive/10 p-2 text-sm text-destructive">
              <p className="font-medium">{refused.length === 1 ? "1 pack scanned is refused and will not be sent:" : `${refused.length} packs scanned are refused and will not be sent:`}</p>
              <ul className="mt-1 list-disc pl-5">
                {refused.map((r) => (
                  <li key={r.serial}>{r.message}</li>
                ))}
              </ul>
            </div>
          )}
          {children && <div className="mt-3">{children}</div>}
          {notes && (
            <p className="mt-3 text-sm break-words">
              <span className="text-muted-foreground">Notes: </span>
              {notes}
            </p>
          )}
          {(nothing || failure) && (
            <p role="alert" className="mt-2 text-sm text-destructive">
              {nothing || failure}
            </p>
          )}
        </form>
      </Form>

      <p className="font-medium">Are you sure?</p>

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
        <Button type="submit" form={`${ids}-form`} variant={type === "delete" ? "destructive" : "default"} disabled={pending}>
          {pending && <Spinner label="Saving" />}
          Confirm
        </Button>
      </DialogFooter>
    </DialogContent>
  );
}
