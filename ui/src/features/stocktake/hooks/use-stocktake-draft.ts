import * as React from "react";
import { serialFromCode } from "@/features/scan";
import type { Place } from "@/features/stocktake/api/stocktake";
import { type Draft, type ScanResult, addScanned, clearDraft, loadDraft, removeScanned, saveDraft } from "@/features/stocktake/utils/draft";
import { newIdempotencyKey } from "@/lib/idempotency";

/**
 * useStocktakeDraft is the signed-in user's stocktake in progress, kept in the browser under
 * their id until it is applied or discarded (utils/draft.ts): the place, the serials scanned
 * (each code read by the one serial parser, serialFromCode) and the apply's key.
 */
export function useStocktakeDraft(userId: string) {
  const [draft, setDraft] = React.useState<Draft>(() => loadDraft(userId));
  // the latest draft, so codes found in quick succession each see the ones before them
  const latest = React.useRef(draft);
  const change = React.useCallback(
    (next: Draft) => {
      latest.current = next;
      setDraft(next);
      saveDraft(userId, next);
    },
    [userId],
  );
  React.useEffect(() => {
    const d = loadDraft(userId);
    latest.current = d;
    setDraft(d);
  }, [userId]);

  const add = React.useCallback(
    (code: string): ScanResult => {
      const r = addScanned(latest.current, serialFromCode(code));
      if (r.result === "added") change(r.draft);
      return r.result;
    },
    [change],
  );
  return {
    draft,
    add,
    remove: (serial: string) => change(removeScanned(latest.current, serial)),
    setPlace: (place: Place) => change({ ...latest.current, place, key: undefined }),
    /** applyKey is the key of this stocktake's apply, minted once and kept with the list. */
    applyKey: (): string => {
      if (latest.current.key) return latest.current.key;
      const key = newIdempotencyKey();
      change({ ...latest.current, key });
      return key;
    },
    /** dropKey forgets the apply's key (the server refused it and kept nothing). */
    dropKey: () => change({ ...latest.current, key: undefined }),
    /** forget clears the draft: applied or discarded. */
    forget: () => {
      clearDraft(userId);
      const next: Draft = { place: latest.current.place, serials: [] };
      latest.current = next;
      setDraft(next);
    },
  };
}
