// A damage report (DESIGN.md §14, issue 37 item 2): a driver (or an admin) says a pack is
// damaged, with a note and photos; the server quarantines the pack. It is a driver action in
// the outbox, so it works offline: the photos are queued first (each its own item, sent in
// three steps like any photo), then the report naming them by their items' keys. The outbox
// sends in order and stops a round at a send that must be retried, so by the time the report
// goes its photos have been claimed; each claimed photo's id is kept on the phone under its
// item's key until the report that names it is recorded.
import * as z from "zod/mini";
import { apiRequest } from "@/lib/api-client";
import { newIdempotencyKey } from "@/lib/idempotency";
import { defineAction } from "@/features/outbox/api/actions";
import type { OutboxItem } from "@/features/outbox/api/db";
import { SEND_TIMEOUT_MS, enqueue } from "@/features/outbox/api/outbox";
import { sendQueuedPhoto } from "@/features/outbox/api/photo-upload";

/** MAX_DAMAGE_PHOTOS is how many photos one report carries (the server's bound). */
export const MAX_DAMAGE_PHOTOS = 10;

/** damageSchema is the damage report form: which pack and what is wrong. */
export const damageSchema = z.object({
  serial: z.string().check(z.trim(), z.toUpperCase(), z.minLength(1, "Choose the damaged pack")),
  note: z
    .string()
    .check(z.trim(), z.minLength(1, "Please describe the damage"), z.maxLength(2000, "Notes can be at most 2000 characters")),
});

/** DamageValues are the form's values. */
export type DamageValues = z.infer<typeof damageSchema>;

/** DamageAnswer is POST /api/packs/{serial}/damage's answer. */
export type DamageAnswer = { success: boolean; message: string; pack: { serial: string; state: string } };

/** CLAIMED_KEY is where the ids of claimed damage photos wait for their report (localStorage). */
export const CLAIMED_KEY = "swapbay-damage-photos";

function claimedMap(): Record<string, string> {
  try {
    const v = JSON.parse(localStorage.getItem(CLAIMED_KEY) ?? "{}") as unknown;
    return v && typeof v === "object" ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function saveClaimed(m: Record<string, string>) {
  try {
    localStorage.setItem(CLAIMED_KEY, JSON.stringify(m));
  } catch {
    // storage full or blocked: the report then goes without this photo's id
  }
}

/** rememberClaimed keeps a claimed photo's id under its outbox item's key. */
export function rememberClaimed(key: string, id: string) {
  saveClaimed({ ...claimedMap(), [key]: id });
}

/** claimedIds are the ids of the photos claimed under keys (a photo the server refused is left out). */
export function claimedIds(keys: readonly string[]): string[] {
  const m = claimedMap();
  return keys.map((k) => m[k]).filter((id): id is string => typeof id === "string" && id !== "");
}

function forgetClaimed(keys: readonly string[]) {
  const m = claimedMap();
  for (const k of keys) delete m[k];
  saveClaimed(m);
}

function photoKeys(body: Record<string, unknown>): string[] {
  return Array.isArray(body.photoKeys) ? body.photoKeys.filter((k): k is string => typeof k === "string") : [];
}

function serialOf(body: Record<string, unknown>): string {
  return typeof body.serial === "string" ? body.serial : "";
}

/** damagePhotoAction is one photo of a damage report (body {filename, notes, serial}, the bytes as its blob). */
export const damagePhotoAction = defineAction({
  kind: "pack-damage-photo",
  send: async (item: OutboxItem) => {
    const photo = await sendQueuedPhoto(item);
    rememberClaimed(item.key, photo.id);
    return photo;
  },
  label: (b) => `Damage photo · ${serialOf(b) || "pack"}`,
  refreshes: ["photos"],
});

/** sendDamage sends a report: POST /api/packs/{serial}/damage naming its claimed photos, under the item's key. */
async function sendDamage(item: OutboxItem): Promise<DamageAnswer> {
  const keys = photoKeys(item.body);
  const answer = await apiRequest<DamageAnswer>(
    "POST",
    `/api/packs/${encodeURIComponent(serialOf(item.body))}/damage`,
    { note: item.body.note, photos: claimedIds(keys), occurredAt: item.occurredAt },
    { idempotencyKey: item.key, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) },
  );
  forgetClaimed(keys);
  return answer;
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
});

/**
 * queueDamagePhotos stores a report's photos in the outbox (each sent on its own, before the report)
 * and returns their keys for the report's body.
 */
export async function queueDamagePhotos(serial: string, note: string, files: readonly File[]): Promise<string[]> {
  const keys: string[] = [];
  const notes = `Damage report · ${serial}: ${note}`.slice(0, 2000);
  for (const file of files.slice(0, MAX_DAMAGE_PHOTOS)) {
    const key = newIdempotencyKey();
    await enqueue(damagePhotoAction.kind, { filename: file.name, notes, serial }, { blob: file, key });
    keys.push(key);
  }
  return keys;
}
