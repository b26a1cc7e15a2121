// The scanned list's rules, apart from React so they are tested alone: add (duplicates
// ignored), remove, and the list kept by its field's id in sessionStorage so it survives a
// rotation, a refused send and a reload until the caller clears it after a successful
// send or queue, or the field leaves the screen (issue 36 item 4).
import type { ScanVerdict } from "@/features/scan/utils/judge";

/** MAX_SCANNED is how many packs one field lists (GET /api/packs/lookup checks 50 at once). */
export const MAX_SCANNED = 50;

/** AddResult says what adding a serial did. */
export type AddResult = { list: string[]; added: boolean; reason?: "duplicate" | "full" };

/** addSerial adds serial at the end of list unless it is already there or the list is full. */
export function addSerial(list: readonly string[], serial: string): AddResult {
  if (list.includes(serial)) return { list: [...list], added: false, reason: "duplicate" };
  if (list.length >= MAX_SCANNED) return { list: [...list], added: false, reason: "full" };
  return { list: [...list, serial], added: true };
}

/** removeSerial answers list without serial. */
export function removeSerial(list: readonly string[], serial: string): string[] {
  return list.filter((s) => s !== serial);
}

const PREFIX = "swapbay.scan.list.";

/** loadList answers the list kept for the field id ([] when none, or storage is unavailable). */
export function loadList(id: string): string[] {
  try {
    const raw = sessionStorage.getItem(PREFIX + id);
    const v: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string").slice(0, MAX_SCANNED) : [];
  } catch {
    return [];
  }
}

/** saveList keeps list for the field id; an empty list forgets it. */
export function saveList(id: string, list: readonly string[]): void {
  try {
    if (list.length === 0) sessionStorage.removeItem(PREFIX + id);
    else sessionStorage.setItem(PREFIX + id, JSON.stringify(list));
  } catch {
    // private mode or a full storage: the list still lives in the screen's state
  }
}

const forgetting = new Map<string, ReturnType<typeof setTimeout>>();

/**
 * holdList marks the list of id as shown by a mounted field, answering the release to call
 * when that field unmounts. A field unmounts when its screen is done with it — the movement
 * sent and its dialog closed, in the same render as the caller's onChange([]), which the
 * field then never sees — so the kept list is forgotten then, lest the next movement start
 * with it. A field mounted again with the same id in the same commit (a layout switched by a
 * rotation) takes the list over; a reload unmounts nothing, so the list survives it.
 */
export function holdList(id: string): () => void {
  const pending = forgetting.get(id);
  if (pending !== undefined) {
    clearTimeout(pending);
    forgetting.delete(id);
  }
  return () => {
    forgetting.set(
      id,
      setTimeout(() => {
        forgetting.delete(id);
        saveList(id, []);
      }, 0),
    );
  };
}

/** PackPurpose is what the packs are scanned for: handed out (pickup, assignment), returned, or anything. */
export type PackPurpose = "handout" | "return" | "any";

/** PackInfo is what the field knows of a serial: being checked, checked, or not checked. */
export type PackInfo =
  | { status: "checking" }
  | { status: "known"; model: string; state: string }
  | { status: "unknown" }
  | { status: "offline" }
  | { status: "failed" };

/** RowView is how a row reads: its detail text and whether it is a problem (shown red). */
export type RowView = { detail: string; problem: boolean; model?: string; state?: string };

/** OUT_OF_USE_STATES are the states a pack is out of use in (DESIGN.md §14 States). */
const OUT_OF_USE_STATES: ReadonlySet<string> = new Set(["quarantined", "retired", "recycled"]);

/** stateLabel is how a state reads: "In service". */
export function stateLabel(state: string): string {
  const s = state.replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * rowView says how a serial's row reads: a server refusal (error) first, then the scan's
 * verdict (features/scan/utils/judge.ts: refused in the server's words, or a note), then what
 * the lookup knows. Offline, a pack scanned to be handed out was judged by the last synced
 * out-of-use list, and says so.
 */
export function rowView(info: PackInfo | undefined, purpose: PackPurpose, error?: string, verdict?: ScanVerdict): RowView {
  const known = info?.status === "known" ? { model: info.model, state: info.state } : {};
  if (error) return { detail: error, problem: true, ...known };
  if (verdict && "refused" in verdict) return { detail: verdict.message, problem: true, ...known };
  const note = verdict?.note;
  const withNote = (detail: string) => (note ? `${detail} · ${note}` : detail);
  switch (info?.status) {
    case "known": {
      // out of use by the lookup while the synced list did not know it yet: the server refuses it
      const stale = purpose === "handout" && OUT_OF_USE_STATES.has(info.state);
      return { detail: withNote(stateLabel(info.state)), problem: stale, ...known };
    }
    case "unknown":
      return { detail: "Unknown pack — not in the registry", problem: true };
    case "offline":
      return { detail: withNote(purpose === "handout" ? "In use by the last synced list (offline)" : "Not checked (offline)"), problem: false };
    case "failed":
      return { detail: withNote("Not checked"), problem: false };
    default:
      return { detail: withNote("Checking…"), problem: false };
  }
}

/** countText is the field's count line: "2 of 3 scanned", or "2 scanned" without an expected count. */
export function countText(scanned: number, expected?: number): string {
  return expected !== undefined && expected > 0 ? `${scanned} of ${expected} scanned` : `${scanned} scanned`;
}
