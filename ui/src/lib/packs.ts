import * as React from "react";
import type { FieldValues, Path, PathValue, UseFormReturn } from "react-hook-form";
import { ApiError } from "@/lib/api-client";
import { useAppState } from "@/lib/state";

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

/** splitSerials splits typed pack serials (commas, semicolons, spaces, new lines) into upper-case serials. */
export function splitSerials(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
}

/**
 * packsProblem says what the server would refuse about serials named for count batteries
 * under mode, in its words (modules/packs/ledger.go MsgPackCount*), so the form says it
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
 * useRequiredCount makes form's count field name follow the packs scanned in required mode
 * (the count IS the number scanned: show the input read-only then); other modes leave it.
 */
export function useRequiredCount<T extends FieldValues, TOut>(
  form: UseFormReturn<T, unknown, TOut>,
  mode: PackTracking,
  name: Path<T>,
  serials: readonly string[],
) {
  const { setValue, formState } = form;
  const submitted = formState.isSubmitted;
  React.useEffect(() => {
    if (mode !== "required") return;
    setValue(name, scannedCount(mode, "", serials) as PathValue<T, Path<T>>, { shouldValidate: submitted });
  }, [mode, name, serials, setValue, submitted]);
}

/** PackCheck is a list and the batteries it names packs for. */
export type PackCheck = { field: string; serials: readonly string[]; count: number };

/** packsCheck is the first list the server would refuse (packsProblem), placed on it; null: none. */
export function packsCheck(mode: PackTracking, checks: readonly PackCheck[]): PackRefusal | null {
  for (const c of checks) {
    const message = packsProblem(c.serials, c.count, mode);
    if (message) return { field: c.field, serial: null, message };
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

/** PACK_REFUSAL_CODES are the server's refusals of named packs (lib/apierr, modules/packs/ledger.go). */
export const PACK_REFUSAL_CODES: ReadonlySet<string> = new Set(["pack_unknown", "pack_count", "pack_quarantined", "pack_retired", "pack_state"]);

/**
 * PackRefusal is a refusal of named packs placed on a form: the list (request field) it
 * names, the pack of that list its message names (null for a count), and the message.
 */
export type PackRefusal = { field: string; serial: string | null; message: string };

/** namedSerial is the serial of serials that message names (as a whole word, any case), or null. */
export function namedSerial(message: string, serials: readonly string[]): string | null {
  const words = new Set(message.toUpperCase().split(/[^A-Z0-9_-]+/));
  return serials.find((s) => words.has(s.toUpperCase())) ?? null;
}

/**
 * packRefusal places error on lists when it is a refusal of named packs (its code): on the
 * list its field names (else the list holding the pack its message names, else the first),
 * on the pack it names. Anything else: null (the form shows it as it always did).
 */
export function packRefusal(error: unknown, lists: PackLists): PackRefusal | null {
  if (!(error instanceof ApiError) || !PACK_REFUSAL_CODES.has(error.code)) return null;
  const fields = Object.keys(lists);
  if (fields.length === 0) return null;
  const message = error.serverMessage.trim();
  const data = error.data && typeof error.data === "object" ? Object.keys(error.data) : [];
  const field = data.find((k) => fields.includes(k));
  for (const f of field ? [field] : fields) {
    const serial = namedSerial(message, lists[f] ?? []);
    if (serial) return { field: f, serial, message };
  }
  return { field: field ?? fields[0]!, serial: null, message };
}

/** rowErrors is the scan field's errors for list field: the refused pack's row and its reason. */
export function rowErrors(refusal: PackRefusal | null, field: string): Record<string, string> | undefined {
  return refusal && refusal.field === field && refusal.serial ? { [refusal.serial]: refusal.message } : undefined;
}

/** listError is a refusal of list field that names none of its packs (a count), shown under the list. */
export function listError(refusal: PackRefusal | null, field: string): string | undefined {
  return refusal && refusal.field === field && !refusal.serial ? refusal.message : undefined;
}

/**
 * afterListChange is what remains of refusal once list field holds serials: a refusal of a
 * pack that left the list is gone (the user may resend), a count refusal of that list too;
 * a refusal of another list, or of a pack still listed, stays.
 */
export function afterListChange(refusal: PackRefusal | null, field: string, serials: readonly string[]): PackRefusal | null {
  if (!refusal || refusal.field !== field) return refusal;
  return refusal.serial && serials.includes(refusal.serial) ? refusal : null;
}

/**
 * usePackLists holds a form's scanned lists (one per request field) and the server's last
 * refusal of them: field(f) gives PackScanField its value, onChange and the refused pack's
 * row; refuse(error) places a refusal (false when error is not one: the form shows it as
 * before); clear() empties every list once the action is sent or queued.
 */
export function usePackLists<F extends string>(fields: readonly F[]) {
  const [lists, setLists] = React.useState<Record<F, string[]>>(() => Object.fromEntries(fields.map((f) => [f, []])) as unknown as Record<F, string[]>);
  const [refusal, setRefusal] = React.useState<PackRefusal | null>(null);
  const set = React.useCallback((field: F, serials: string[]) => {
    setLists((l) => ({ ...l, [field]: serials }));
    setRefusal((r) => afterListChange(r, field, serials));
  }, []);
  return {
    lists,
    refusal,
    field: (f: F) => ({ value: lists[f], onChange: (serials: string[]) => set(f, serials), errors: rowErrors(refusal, f) }),
    listError: (f: F) => listError(refusal, f),
    /** check places the first list the server would refuse (packsCheck); true when all is well. */
    check: (mode: PackTracking, counts: Partial<Record<F, number>>) => {
      const r = packsCheck(
        mode,
        fields.map((f) => ({ field: f, serials: lists[f], count: counts[f] ?? 0 })),
      );
      setRefusal(r);
      return r === null;
    },
    refuse: (error: unknown) => {
      const r = packRefusal(error, lists);
      setRefusal(r);
      return r !== null;
    },
    clear: () => {
      for (const f of fields) set(f, []);
      setRefusal(null);
    },
  };
}
