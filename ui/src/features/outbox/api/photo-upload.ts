// A photo kept in the outbox is sent in three steps (DESIGN.md §12): a fresh upload URL, the
// PUT of the stored bytes and the claim under the item's key with the tap's time. The upload is
// kept on the item once its bytes are stored, so a resend claims the same upload: the claim's
// body never changes under its key (a key repeated with another body is refused 409). The photos
// feature's own photo and a damage report's photos (features/packs) both send this way.
import { ApiError, apiRequest } from "@/lib/api-client";
import { newIdempotencyKey } from "@/lib/idempotency";
import { type OutboxItem, keepUploaded } from "@/features/outbox/api/db";
import { PUT_TIMEOUT_MS, SEND_TIMEOUT_MS, TransportError } from "@/features/outbox/api/outbox";

/** ClaimedPhoto is POST /api/photos/upload's answer: the photo's id. */
export type ClaimedPhoto = { id: string; sha256: string };

/**
 * sendQueuedPhoto sends a photo kept in the outbox (body {filename, notes}, the bytes as its
 * blob): a fresh upload URL (one lives 15 minutes, so each send asks anew), the PUT of the
 * stored bytes and the claim under the item's key with the tap's time.
 */
export async function sendQueuedPhoto(item: OutboxItem): Promise<ClaimedPhoto> {
  if (item.uploaded) {
    try {
      return await claim(item, item.uploaded);
    } catch (error) {
      // the upload is gone (never claimed, and pruned): the key has no answer kept (a refusal is
      // not kept), so the bytes go again, to a new upload, under the same key
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }
  const { uploadURL } = await apiRequest<{ uploadURL: string }>("POST", "/api/objects/upload", undefined, {
    idempotencyKey: newIdempotencyKey(),
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
  let res: Response;
  try {
    res = await fetch(uploadURL, {
      method: "PUT",
      body: item.blob,
      credentials: "include",
      headers: { "Content-Type": item.blob?.type || "application/octet-stream" },
      signal: AbortSignal.timeout(PUT_TIMEOUT_MS),
    });
  } catch (error) {
    throw new TransportError(0, error instanceof Error ? error.message : "Network error");
  }
  if (!res.ok) {
    const text = await res.text().catch(() => "");
    const e = new ApiError(res.status, text);
    throw new TransportError(res.status, e.serverMessage || "Failed to upload file", e.code);
  }
  // kept before the claim: a claim whose answer is lost is resent with this same upload
  const uploaded = uploadURL.split("?")[0]!;
  await keepUploaded(item.key, uploaded);
  return claim(item, uploaded);
}

/** claim claims the upload url under the item's key with the tap's time (the same body on every send of the key). */
function claim(item: OutboxItem, url: string): Promise<ClaimedPhoto> {
  const notes = typeof item.body.notes === "string" ? item.body.notes.trim() : "";
  return apiRequest<ClaimedPhoto>(
    "POST",
    "/api/photos/upload",
    { filename: item.body.filename, url, notes: notes === "" ? null : notes, occurredAt: item.occurredAt },
    { idempotencyKey: item.key, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) },
  );
}
