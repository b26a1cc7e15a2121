// A stocktake in progress (issue 42 item 4): the place and the serials scanned so far, kept in
// the browser under the signed-in user's id so that a reload, a closed tab or a dead battery
// does not lose a half-counted shelf. It is kept until the stocktake is applied or discarded.
// The Idempotency-Key of the apply is minted once, at the first Apply, and kept with the list:
// an answer lost on a bad connection is asked for again with the same key and applied once. A
// serial added or removed after it forgets the key: the key names that one list.

import { type Place, isPlace } from "@/features/stocktake/api/stocktake";

/** Draft is a stocktake in progress. */
export type Draft = { place: Place; serials: string[]; key?: string };

/** EMPTY_DRAFT is a stocktake not started: the ready shelf, nothing scanned. */
export const EMPTY_DRAFT: Draft = { place: "ready", serials: [] };

/** MAX_SERIALS is how many packs one stocktake counts (the server's stocktake.MaxSerials). */
export const MAX_SERIALS = 10_000;

const PREFIX = "swapbay.stocktake.";

/** draftKey is where userId's draft is kept. */
export function draftKey(userId: string): string {
  return PREFIX + userId;
}

/** loadDraft answers userId's kept draft (EMPTY_DRAFT when none, or it cannot be read). */
export function loadDraft(userId: string): Draft {
  try {
    const raw = localStorage.getItem(draftKey(userId));
    const v = raw ? (JSON.parse(raw) as Partial<Draft>) : null;
    if (!v || !isPlace(v.place)) return EMPTY_DRAFT;
    const serials = Array.isArray(v.serials) ? v.serials.filter((s): s is string => typeof s === "string").slice(0, MAX_SERIALS) : [];
    return { place: v.place, serials, ...(typeof v.key === "string" ? { key: v.key } : {}) };
  } catch {
    return EMPTY_DRAFT;
  }
}

/** saveDraft keeps userId's draft; an empty one (nothing scanned, no apply pending) is forgotten. */
export function saveDraft(userId: string, draft: Draft): void {
  try {
    if (draft.serials.length === 0 && !draft.key && draft.place === EMPTY_DRAFT.place) localStorage.removeItem(draftKey(userId));
    else localStorage.setItem(draftKey(userId), JSON.stringify(draft));
  } catch {
    // private mode or a full storage: the draft still lives in the screen's state
  }
}

/** clearDraft forgets userId's draft (applied or discarded). */
export function clearDraft(userId: string): void {
  try {
    localStorage.removeItem(draftKey(userId));
  } catch {
    // nothing kept
  }
}

/** ScanResult is what adding a code did (the scanner's words). */
export type ScanResult = "added" | "duplicate" | "wrong" | "full";

/** addScanned adds serial (null: not a pack label) at the end of the draft's list. */
export function addScanned(draft: Draft, serial: string | null): { draft: Draft; result: ScanResult } {
  if (!serial) return { draft, result: "wrong" };
  if (draft.serials.includes(serial)) return { draft, result: "duplicate" };
  if (draft.serials.length >= MAX_SERIALS) return { draft, result: "full" };
  return { draft: { place: draft.place, serials: [...draft.serials, serial] }, result: "added" };
}

/**
 * removeScanned takes serial off the draft's list. Like an added serial, it forgets the apply's
 * key: another list is another apply (the server refuses a key repeated with another body, 409).
 */
export function removeScanned(draft: Draft, serial: string): Draft {
  if (!draft.serials.includes(serial)) return draft;
  return { place: draft.place, serials: draft.serials.filter((s) => s !== serial) };
}
