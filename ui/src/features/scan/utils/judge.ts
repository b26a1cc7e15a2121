// How a scan is judged at the moment of the scan (issue 42 item 6), apart from React so it is
// tested alone: a pack the rules refuse for where it goes is refused in the scanner itself, with
// the server's own reason (GET /api/packs/out-of-use, kept offline with the app's reads); a pack
// already named in a queued action is added, with a note saying so.

/** ScanVerdict is what a scanned serial is: fine (with a note to show, maybe) or refused with why. */
export type ScanVerdict = { ok: true; note?: string } | { refused: true; code: string; message: string };

/** Judge answers a serial's verdict. */
export type Judge = (serial: string) => ScanVerdict;

/** OK is the verdict of a serial nothing is said about. */
export const OK: ScanVerdict = { ok: true };

/** Refusal is a pack's refusal as the server words it. */
export type Refusal = { code: string; message: string };

/**
 * judgeSerial judges serial for where it goes: refused, in the server's words, when handout
 * (to a person or a charger: pickup, assignment, swap, transfer, charging start) and the pack
 * is out of use; else fine, noting a queued action that already names it.
 */
export function judgeSerial(
  serial: string,
  handout: boolean,
  outOfUse: ReadonlyMap<string, Refusal>,
  queued: ReadonlyMap<string, string>,
): ScanVerdict {
  const key = serial.toUpperCase();
  // a pack sent to another city (pack_in_transit) moves nowhere here, whatever the purpose
  const listed = outOfUse.get(key);
  const r = handout || listed?.code === "pack_in_transit" ? listed : undefined;
  if (r) return { refused: true, code: r.code, message: r.message };
  const q = queued.get(key);
  return q ? { ok: true, note: `Already in a queued action: ${q}` } : OK;
}

/** refusedOf is the refused serials of list by their reasons (empty when none is refused). */
export function refusedOf(list: readonly string[], judge: Judge): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of list) {
    const v = judge(s);
    if ("refused" in v) out[s] = v.message;
  }
  return out;
}
