// A damage report (DESIGN.md §14, issue 37 item 2): a driver (or an admin) says a pack is
// damaged, with a note and photos; the server quarantines the pack. It is a driver action in
// the outbox, so it works offline: the photos are stored with the report, before it and in the
// same transaction (each its own item, sent in three steps like any photo), the report naming
// them by their items' keys. The outbox sends in order and stops a round at a send that must
// be retried, so by the time the report goes its photos have been claimed: each claimed
// photo's id waits on the report's item in the outbox's store (IndexedDB) until it is
// recorded or discarded.
import * as z from "zod/mini";
import { apiRequest } from "@/lib/api-client";
import { newIdempotencyKey } from "@/lib/idempotency";
import { defineAction, serials } from "@/features/outbox/api/actions";
import { type OutboxItem, keepClaimed } from "@/features/outbox/api/db";
import { type Part, SEND_TIMEOUT_MS } from "@/features/outbox/api/outbox";
import { sendQueuedPhoto } from "@/features/outbox/api/photo-upload";

/** MAX_DAMAGE_PHOTOS is how many photos one report carries (the server's bound). */
export const MAX_DAMAGE_PHOTOS = 10;

/** damageSchema is the damage report form: which pack and what is wrong. */
export const damageSchema = z.object({
  serial: z.string().check(z.trim(), z.toUpperCase(), z.minLength(1, "Choose the damaged pack")),
  note: z
    .string()
    .check(z.trim(), z.minLength(1, "Please describe the damage"), z.maxLength(2000, "A note can be at most 2000 characters")),
});

/** DamageValues are the form's values. */
export type DamageValues = z.infer<typeof damageSchema>;

/** DamageAnswer is POST /api/packs/{serial}/damage's answer. */
export type DamageAnswer = { success: boolean; message: string; pack: { serial: string; state: string } };

/**
 * LEGACY_CLAIMED_KEY is where versions before issue 43 kept the claimed photos' ids (localStorage,
 * {photo key: id}); migrateClaimed moves them onto their reports in the outbox's store.
 */
export const LEGACY_CLAIMED_KEY = "swapbay-damage-photos";

/** PHOTO_KEYS is the report body's field naming its photos' outbox keys. */
const PHOTO_KEYS = "photoKeys";

/**
 * migrateClaimed moves the ids an older version kept in localStorage onto the queued reports
 * that name their keys (keepClaimed), then forgets the old copy; an id no queued report names
 * (its report discarded) is dropped. If the store cannot be written the old copy stays for the
 * next start.
 */
export async function migrateClaimed(): Promise<void> {
  let legacy: Record<string, unknown>;
  try {
    const raw = localStorage.getItem(LEGACY_CLAIMED_KEY);
    if (raw === null) return;
    const v = JSON.parse(raw) as unknown;
    legacy = v && typeof v === "object" ? (v as Record<string, unknown>) : {};
  } catch {
    legacy = {}; // unreadable: nothing to move
  }
  for (const [key, id] of Object.entries(legacy)) {
    if (typeof id === "string" && id !== "") await keepClaimed(PHOTO_KEYS, key, id);
  }
  localStorage.removeItem(LEGACY_CLAIMED_KEY);
}

/** claimedIds are the ids of item's photos claimed so far, in its order (a photo the server refused is left out). */
export function claimedIds(item: Pick<OutboxItem, "body" | "claimed">): string[] {
  return photoKeys(item.body)
    .map((k) => item.claimed?.[k])
    .filter((id): id is string => typeof id === "string" && id !== "");
}

function photoKeys(body: Record<string, unknown>): string[] {
  return serials(body[PHOTO_KEYS]);
}

function serialOf(body: Record<string, unknown>): string {
  return typeof body.serial === "string" ? body.serial : "";
}

/** damagePhotoAction is one photo of a damage report (body {filename, notes, serial}, the bytes as its blob). */
export const damagePhotoAction = defineAction({
  kind: "pack-damage-photo",
  send: async (item: OutboxItem) => {
    const photo = await sendQueuedPhoto(item);
    // the id waits with the report in the outbox's store (stored with it, so it is there)
    await keepClaimed(PHOTO_KEYS, item.key, photo.id);
    return photo;
  },
  label: (b) => `Damage photo · ${serialOf(b) || "pack"}`,
  refreshes: ["photos"],
});

/** sendDamage sends a report: POST /api/packs/{serial}/damage naming its claimed photos, under the item's key. */
function sendDamage(item: OutboxItem): Promise<DamageAnswer> {
  return apiRequest<DamageAnswer>(
    "POST",
    `/api/packs/${encodeURIComponent(serialOf(item.body))}/damage`,
    { note: item.body.note, photos: claimedIds(item), occurredAt: item.occurredAt },
    { idempotencyKey: item.key, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) },
  );
}

/** damageAction is a damage report (body {serial, note, photoKeys}): the pack goes to quarantine. */
export const damageAction = defineAction({
  kind: "pack-damage",
  send: sendDamage,
  label: (b) => {
    const n = photoKeys(b).length;
    return `Damage report · ${serialOf(b) || "pack"}${n > 0 ? ` · ${n} ${n === 1 ? "photo" : "photos"}` : ""}`;
  },
  refreshes: ["packs"],
  migrate: migrateClaimed,
});

/**
 * damagePhotos are a report's photos as parts of its outbox item (stored before it, in the same
 * transaction, each sent on its own before it) and their keys for the report's body.
 */
export function damagePhotos(serial: string, note: string, files: readonly File[]): { parts: Part[]; photoKeys: string[] } {
  const notes = `Damage report · ${serial}: ${note}`.slice(0, 2000);
  const parts = files.slice(0, MAX_DAMAGE_PHOTOS).map(
    (file): Part => ({ kind: damagePhotoAction.kind, body: { filename: file.name, notes, serial }, blob: file, key: newIdempotencyKey() }),
  );
  return { parts, photoKeys: parts.map((p) => p.key!) };
}
