import type { FeedMovement } from "@/features/activity/api/get-recent-activity";
import { movementNotes } from "@/lib/format-ops";

// Notes of system bookkeeping that the Dropoff Notes card hides (spec part 1 §2).
const HIDDEN_MENTIONS = ["transfer:", "priority removal:", "completed charging session", "auto-completed", "cleared session"];

/** isHiddenNote reports notes the Dropoff Notes card leaves out. */
export function isHiddenNote(notes: string): boolean {
  const text = notes.trim().toLowerCase();
  return HIDDEN_MENTIONS.some((m) => text.includes(m)) || text.startsWith("moved ");
}

/** DropoffNote is one card entry: the movement and its readable note. */
export type DropoffNote = { movement: FeedMovement; note: string };

/**
 * dropoffNotes picks the dropoffs that carry a note a person wrote, newest first as given,
 * leaving out the hidden kinds (checked on the raw and the cleaned text).
 */
export function dropoffNotes(movements: readonly FeedMovement[]): DropoffNote[] {
  const out: DropoffNote[] = [];
  for (const m of movements) {
    if (m.type !== "dropoff" || !m.notes) continue;
    const note = movementNotes(m);
    if (!note || isHiddenNote(m.notes) || isHiddenNote(note)) continue;
    out.push({ movement: m, note });
  }
  return out;
}
