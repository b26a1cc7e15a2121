import * as React from "react";
import type { FieldValues, Path, PathValue, UseFormReturn } from "react-hook-form";
import { toast } from "@/hooks/use-toast";
import { ApiError, refusedPacks } from "@/lib/api-client";
import { serialFromCode } from "@/lib/serial";
import { useAppState } from "@/lib/state";
import { toastError } from "@/lib/toast-error";

/** PackTracking is the operation's pack tracking mode (DESIGN.md §14). */
export type PackTracking = "off" | "optional" | "required";

/** packTracking reads the mode from the stored settings (GET /api/state's or /api/inventory's); unset is off. */
export function packTracking(settings: { pack_tracking?: string } | undefined): PackTracking {
  const v = settings?.pack_tracking;
  return v === "optional" || v === "required" ? v : "off";
}

/**
 * usePackTracking is the mode every battery-moving screen scans by (GET /api/state, which
 * every signed-in user reads and the phone keeps offline): off until it is known.
 */
export function usePackTracking(): PackTracking {
  return packTracking(useAppState().data?.settings);
}

/**
 * splitSerials splits typed pack serials or label URLs (commas, semicolons, spaces, new lines)
 * into serials, each read by the one reading of a code (serialFromCode); a word that is no
 * serial is kept upper-cased, so the server names it unknown.
 */
export function splitSerials(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .filter((s) => s.trim() !== "")
    .map((s) => serialFromCode(s) ?? s.trim().toUpperCase());
}

/**
 * packsProblem says what the server would refuse about serials named for count batteries
 * under mode, in its words (modules/journal/move.go MsgPackCount*), so the form says it
 * before sending; null: nothing. Optional: at most one pack per battery; required: exactly.
 */
export function packsProblem(serials: readonly string[], count: number, mode: PackTracking): string | null {
  if (mode === "off") return null;
  const n = serials.length;
  const seen = new Set<string>();
  for (const s of serials) {
    if (seen.has(s)) return `Pack ${s} is named twice`;
    seen.add(s);
  }
  const what = count === 1 ? "1 pack for 1 battery" : `${count} packs for ${count} batteries`;
  if (mode === "required" && n !== count) return `Name exactly ${what} (${n} named)`;
  if (n > count) return `Name at most ${what} (${n} named)`;
  return null;
}

/**
 * scannedCount is the count a form holds under mode: as typed, except in required mode, where
 * the count IS the number of packs scanned ("" for none, so the count's own message shows).
 */
export function scannedCount(mode: PackTracking, typed: string, serials: readonly string[]): string {
  if (mode !== "required") return typed;
  return serials.length > 0 ? String(serials.length) : "";
}

/**
 * followedCount is the count after the packs scanned went from before to after packs, in
 * optional mode (issue 42 item 6: the driver never types a number the scans already gave):
 * a count that was blank or followed the scans follows them again; one typed above the scans
 * stays while the scans do not pass it. null: leave the count as it is.
 */
export function followedCount(typed: string, before: number, after: number): string | null {
  if (before === after) return null;
  const t = typed.trim();
  const n = /^\d+$/.test(t) ? Number(t) : undefined;
  if (n === undefined || n === before || n < after) return after > 0 ? String(after) : "";
  return null;
}

/** expectedCount is a typed count as the scan field's "2 of 3 scanned" wants it (undefined: none yet). */
export function expectedCount(typed: unknown): number | undefined {
  const t = typeof typed === "number" ? String(typed) : typeof typed === "string" ? typed.trim() : "";
  return /^\d+$/.test(t) ? Number(t) : undefined;
}

/**
 * countFieldProps are a count field's props under tracking: in required mode the count IS the
 * number of packs scanned, so the input is read-only and says so.
 */
export function countFieldProps(tracking: PackTracking): { readOnly?: true; description?: string } {
  return tracking === "required" ? { readOnly: true, description: "The packs scanned" } : {};
}

/**
 * useScannedCount makes form's count field name follow the packs scanned: in required mode the
 * count IS the number scanned (show the input read-only then); in optional mode the scans set
 * it as they come (followedCount), the driver may type it higher. Off: the count is typed.
 */
export function useScannedCount<T extends FieldValues, TOut>(
  form: UseFormReturn<T, unknown, TOut>,
  mode: PackTracking,
  name: Path<T>,
  serials: readonly string[],
) {
  const { setValue, getValues, formState } = form;
  const submitted = formState.isSubmitted;
  const seen = React.useRef(serials.length);
  React.useEffect(() => {
    const before = seen.current;
    seen.current = serials.length;
    if (mode === "required") {
      setValue(name, scannedCount(mode, "", serials) as PathValue<T, Path<T>>, { shouldValidate: submitted });
      return;
    }
    if (mode !== "optional") return;
    const current = getValues(name) as unknown;
    const next = followedCount(typeof current === "number" ? String(current) : typeof current === "string" ? current : "", before, serials.length);
    if (next !== null) setValue(name, next as PathValue<T, Path<T>>, { shouldValidate: submitted });
  }, [mode, name, serials, setValue, getValues, submitted]);
}

/** PackCheck is a list and the batteries it names packs for. */
export type PackCheck = { field: string; serials: readonly string[]; count: number };

/** packsCheck is the first list the server would refuse (packsProblem), placed on it; null: none. */
export function packsCheck(mode: PackTracking, checks: readonly PackCheck[]): PackRefusal | null {
  for (const c of checks) {
    const message = packsProblem(c.serials, c.count, mode);
    if (message) return { field: c.field, serials: {}, message };
  }
  return null;
}

/** PackLists are a form's scanned lists by the request field that carries them (packs, goodPacks, …). */
export type PackLists = Record<string, readonly string[]>;

/**
 * packsBody is what a write adds to its body for lists: each list that names packs, and
 * nothing when tracking is off (the body then stays as it always was).
 */
export function packsBody(mode: PackTracking, lists: PackLists): Record<string, string[]> {
  if (mode === "off") return {};
  const body: Record<string, string[]> = {};
  for (const [field, serials] of Object.entries(lists)) if (serials.length > 0) body[field] = [...serials];
  return body;
}

/** PACK_REFUSAL_CODES are the server's refusals of named packs (lib/apierr, modules/journal; pack_worn: DESIGN.md §16). */
export const PACK_REFUSAL_CODES: ReadonlySet<string> = new Set(["pack_unknown", "pack_count", "pack_quarantined", "pack_retired", "pack_state", "pack_worn"]);

/**
 * PackRefusal is a refusal of named packs placed on a form: the list (request field) it
 * belongs to, the refused packs of the lists by serial with their reasons (empty for a count),
 * and the refusal's message.
 */
export type PackRefusal = { field: string; serials: Readonly<Record<string, string>>; message: string };

/**
 * packRefusal places error on lists when it is a refusal of named packs (its code): each pack
 * its data.packs names on its row (in whichever list holds it), the message on the list its
 * data names as a field (else the list holding the first refused pack, else the first list).
 * The message is never parsed. Anything else: null (the form shows it as it always did).
 */
export function packRefusal(error: unknown, lists: PackLists): PackRefusal | null {
  if (!(error instanceof ApiError) || !PACK_REFUSAL_CODES.has(error.code)) return null;
  const fields = Object.keys(lists);
  if (fields.length === 0) return null;
  const message = error.serverMessage.trim();
  const packs = refusedPacks(error.data);
  const serials: Record<string, string> = {};
  for (const p of packs) serials[p.serial.toUpperCase()] = p.message || message;
  const data = error.data && typeof error.data === "object" ? (error.data as Record<string, unknown>) : {};
  const named = fields.find((f) => f in data && !Array.isArray(data[f]));
  const holding = fields.find((f) => (lists[f] ?? []).some((s) => s.toUpperCase() in serials));
  return { field: named ?? holding ?? fields[0]!, serials, message };
}

/** rowErrors is the scan field's errors for list: its refused packs' rows and their reasons. */
export function rowErrors(refusal: PackRefusal | null, list: readonly string[]): Record<string, string> | undefined {
  if (!refusal) return undefined;
  const out: Record<string, string> = {};
  for (const s of list) {
    const why = refusal.serials[s.toUpperCase()];
    if (why) out[s] = why;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** listError is a refusal of list field that names none of the form's packs (a count), shown under the list. */
export function listError(refusal: PackRefusal | null, field: string): string | undefined {
  return refusal && refusal.field === field && Object.keys(refusal.serials).length === 0 ? refusal.message : undefined;
}

/**
 * afterListChange is what remains of refusal once list field holds serials: the refused
 * packs that left the lists are gone (the user may resend once none is left), a count refusal
 * of that list too; a refusal of another list stays.
 */
export function afterListChange(refusal: PackRefusal | null, field: string, serials: readonly string[], lists: PackLists): PackRefusal | null {
  if (!refusal) return refusal;
  const refused = Object.keys(refusal.serials);
  if (refused.length === 0) return refusal.field === field ? null : refusal;
  const listed = new Set(
    Object.entries(lists)
      .flatMap(([f, l]) => (f === field ? serials : l))
      .map((s) => s.toUpperCase()),
  );
  const left = refused.filter((s) => listed.has(s));
  if (left.length === refused.length) return refusal;
  return left.length === 0 ? null : { ...refusal, serials: Object.fromEntries(left.map((s) => [s, refusal.serials[s]!])) };
}

/**
 * usePackLists holds a form's scanned lists (one per request field) and the server's last
 * refusal of them: field(f) gives PackScanField its value, onChange, the refused pack's row and
 * where to report the packs its judgement refuses (an out-of-use pack handed out: issue 42 item
 * 6). lists are the packs the form sends: the scanned ones less those refused (refused lists
 * them with their reasons, for the Confirm dialog to name); scanned are all of them. refuse(error)
 * places a server refusal (false when error is not one: the form shows it as before); clear()
 * empties every list once the action is sent or queued.
 */
export function usePackLists<F extends string>(fields: readonly F[]) {
  const [scanned, setScanned] = React.useState<Record<F, string[]>>(() => Object.fromEntries(fields.map((f) => [f, []])) as unknown as Record<F, string[]>);
  const [judged, setJudged] = React.useState<Partial<Record<F, Record<string, string>>>>({});
  const [refusal, setRefusal] = React.useState<PackRefusal | null>(null);
  const listsRef = React.useRef(scanned);
  React.useEffect(() => {
    listsRef.current = scanned;
  });
  const set = React.useCallback((field: F, serials: string[]) => {
    setScanned((l) => ({ ...l, [field]: serials }));
    setRefusal((r) => afterListChange(r, field, serials, listsRef.current));
  }, []);
  const judge = React.useCallback((field: F, refused: Record<string, string>) => {
    setJudged((j) => (JSON.stringify(j[field] ?? {}) === JSON.stringify(refused) ? j : { ...j, [field]: refused }));
  }, []);
  const lists = React.useMemo(
    () => Object.fromEntries(fields.map((f) => [f, acceptedOf(scanned[f], judged[f])])) as unknown as Record<F, string[]>,
    [fields, scanned, judged],
  );
  return {
    lists,
    scanned,
    /** refused are the listed packs the form does not send, with why (the Confirm dialog names them). */
    refused: fields.flatMap((f) => scanned[f].filter((s) => judged[f]?.[s] !== undefined).map((s) => ({ serial: s, message: judged[f]![s]! }))),
    refusal,
    field: (f: F) => ({
      value: scanned[f],
      onChange: (serials: string[]) => set(f, serials),
      errors: rowErrors(refusal, scanned[f]),
      onRefused: (refused: Record<string, string>) => judge(f, refused),
    }),
    listError: (f: F) => listError(refusal, f),
    /** check places the first list the server would refuse (packsCheck) of the packs sent; true when all is well. */
    check: (mode: PackTracking, counts: Partial<Record<F, number>>) => {
      const r = packsCheck(
        mode,
        fields.map((f) => ({ field: f, serials: lists[f], count: counts[f] ?? 0 })),
      );
      setRefusal(r);
      return r === null;
    },
    refuse: (error: unknown) => {
      const r = packRefusal(error, scanned);
      setRefusal(r);
      return r !== null;
    },
    clear: () => {
      for (const f of fields) set(f, []);
      setRefusal(null);
    },
  };
}

/** acceptedOf is list less the serials refused names. */
export function acceptedOf(list: string[], refused: Readonly<Record<string, string>> | undefined): string[] {
  if (!refused || Object.keys(refused).length === 0) return list;
  return list.filter((s) => refused[s] === undefined);
}

/** PackMoveOutcome: the form's pack lists, how the confirm dialog closes and the form empties, the toasts' defaults. */
export type PackMoveOutcome = {
  packs: { refuse: (error: unknown) => boolean; clear: () => void };
  /** close drops what waited for confirmation (the confirm dialog closes) */
  close: () => void;
  /** reset empties the form */
  reset: () => void;
  /** success is the toast's title when the server's answer has no message */
  success: string;
  /** failure is the error toast's text when the error says nothing */
  failure: string;
};

/**
 * packMoveCallbacks are the mutate callbacks of a confirmed battery move that may name packs:
 * done, its toast, the confirm dialog closes and the form and its pack lists empty; failed, a
 * refused pack closes the dialog on the list (the pack's row says why), and the error toast.
 */
export function packMoveCallbacks({ packs, close, reset, success, failure }: PackMoveOutcome) {
  return {
    onSuccess: (res: { message?: string } | undefined) => {
      toast({ title: res?.message || success });
      close();
      reset();
      packs.clear();
    },
    onError: (err: unknown) => {
      if (packs.refuse(err)) close();
      toastError(err, failure);
    },
  };
}
