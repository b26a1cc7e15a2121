import type { FeedMovement } from "@/features/activity/api/get-recent-activity";
import { movementNotes, noteCounts } from "@/lib/format-ops";
import { displayName } from "@/lib/user";

function batteries(n: number): string {
  return `${n} ${n === 1 ? "battery" : "batteries"}`;
}

/**
 * movementCounts are a movement's good and dead batteries: its counts (or, for an older one,
 * the note's markers), or null when it names none.
 */
export function movementCounts(m: Pick<FeedMovement, "meta" | "goodBatteries" | "deadBatteries" | "notes">): { good: number; dead: number } | null {
  if (m.meta) return m.meta.good + m.meta.dead > 0 ? { good: m.meta.good, dead: m.meta.dead } : null;
  if (m.goodBatteries !== undefined && m.goodBatteries + (m.deadBatteries ?? 0) > 0) return { good: m.goodBatteries, dead: m.deadBatteries ?? 0 };
  return noteCounts(m.notes);
}

/** personName is who a movement belongs to ('System' for bookkeeping without one). */
export function personName(m: Pick<FeedMovement, "user">): string {
  return m.user ? displayName(m.user) : "System";
}

/**
 * movementSummary is the human-readable sentence of the Movement Options dialog and the
 * feeds ('Ann Lee dropped off 4 batteries (3 good, 1 dead)').
 */
export function movementSummary(m: FeedMovement): string {
  const who = personName(m);
  const q = Math.abs(m.quantity);
  const counts = movementCounts(m);
  const split = counts ? ` (${counts.good} good, ${counts.dead} dead)` : "";
  switch (m.type) {
    case "pickup":
      return (m.meta ? !!m.meta.assignmentType && m.meta.assignmentType !== "pickup" : /^MANUAL_ASSIGNMENT:/.test(m.notes))
        ? `${batteries(q)} assigned to ${who}`
        : `${who} picked up ${batteries(q)}`;
    case "dropoff":
      return `${who} dropped off ${batteries(q)}${split}`;
    case "driver_swap_out":
      return `${who} gave ${batteries(q)} in a driver swap${split}`;
    case "driver_swap_in":
      return `${who} received ${batteries(q)} in a driver swap${split}`;
    case "driver_swap":
      return `Driver swap of ${batteries(q)}${split}`;
    case "adjustment":
      return `${who} adjusted the inventory by ${m.quantity > 0 ? "+" : ""}${m.quantity}`;
    case "charge_start":
      return `${who} started charging ${batteries(q)}`;
    case "charge_complete":
      return `${batteries(q)} finished charging`;
    case "internal_transfer":
      return `Internal transfer of ${batteries(q)}`;
    case "rebalance":
      return `${who} logged ${q} ${q === 1 ? "move" : "moves"}`;
    case "retrieves_repairs_dropoff":
      return `${who} logged ${q} ${q === 1 ? "recover" : "recovers"}`;
    case "dead_battery_dropoff":
      return `${who} dropped off ${batteries(q)} dead`;
    case "transfer_out":
    case "transfer_in":
      return transferSentence(m.notes) || `${batteries(q)} ${m.type === "transfer_out" ? "sent to another city" : "received from another city"}`;
    default:
      return `${who}: ${movementNotes(m) || `${q} batteries`}`;
  }
}

/**
 * transferSentence is a transfer's own sentence in its notes ("Sent 2 packs to Berlin",
 * "Received 2 packs from Paris"): the admin's note follows " - " and shows as the note.
 */
function transferSentence(notes: string): string {
  return notes.replace(/ - [\s\S]*$/, "");
}

/**
 * sendDeleteWarning is the delete confirmation's sentence for a send to another city, naming
 * the city as the send's sentence does: the sender cannot know whether the packs were received,
 * and a serial is in service in one city at most (DESIGN.md §15). "" for any other movement.
 */
export function sendDeleteWarning(m: Pick<FeedMovement, "type" | "notes">): string {
  if (m.type !== "transfer_out") return "";
  const city = /^Sent \d+ packs? to (.+)$/.exec(transferSentence(m.notes).trim())?.[1]?.trim();
  return `Delete a send only if its packs never left: if ${city || "the other city"} has received them, they would be counted in both cities.`;
}
