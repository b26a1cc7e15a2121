import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/hooks/use-toast";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { newIdempotencyKey } from "@/lib/idempotency";

/** PHOTOS_POLL_MS: photo queries refresh every 60 s (spec part 2 §7). */
export const PHOTOS_POLL_MS = 60_000;

/** Photo is one photo as GET /api/photos returns it. */
export type Photo = {
  id: string;
  filename: string;
  notes: string;
  uploadedAt: string;
  uploadedBy: string;
  uploadedByUser: { firstName: string; lastName: string; email: string } | null;
  sha256: string;
  duplicateOf: string | null;
};

/** photosQueryOptions: every photo the caller may see (GET /api/photos), newest first. */
export const photosQueryOptions = queryOptions<Photo[]>({ queryKey: ["/api/photos"], refetchInterval: PHOTOS_POLL_MS });

/** usePhotos loads the photos, refreshed every 60 s. */
export function usePhotos() {
  return useQuery(photosQueryOptions);
}

/** photoImageUrl is the image (thumb: the 400x400 thumbnail) of a photo. */
export function photoImageUrl(id: string, thumb = false): string {
  return `/api/photos/${encodeURIComponent(id)}/image${thumb ? "?thumb=1" : ""}`;
}

/** useDeletePhoto deletes one photo with the spec's toasts. */
export function useDeletePhoto() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest("DELETE", `/api/photos/${encodeURIComponent(id)}`, undefined, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: () => toast({ title: "Photo deleted", description: "Photo has been completely removed from all systems" }),
    onError: (error) => toast({ title: "Delete failed", description: errorMessage(error, "Delete failed"), variant: "destructive" }),
    onSettled: () => qc.invalidateQueries({ queryKey: photosQueryOptions.queryKey }),
  });
}

/** useMassDeletePhotos deletes several photos at once (all or nothing). */
export function useMassDeletePhotos() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (photoIds: string[]) =>
      apiRequest("DELETE", "/api/photos/mass", { photoIds }, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: (_r, ids) => toast({ title: "Photos deleted", description: `Successfully deleted ${ids.length} photos` }),
    onError: (error) => toast({ title: "Mass delete failed", description: errorMessage(error, "Mass delete failed"), variant: "destructive" }),
    onSettled: () => qc.invalidateQueries({ queryKey: photosQueryOptions.queryKey }),
  });
}

/** UploadStep names where an upload failed, for the spec's toast titles. */
export class UploadError extends Error {
  constructor(
    readonly title: "Failed to get upload URL" | "Failed to upload file" | "Upload failed",
    message: string,
  ) {
    super(message);
  }
}

function serverMessage(text: string, fallback: string): string {
  try {
    const body = JSON.parse(text) as { message?: string };
    return body.message || fallback;
  } catch {
    return fallback;
  }
}

/** putFile sends the bytes to the signed URL with XMLHttpRequest so progress (0-1) is reported. */
function putFile(url: string, file: Blob, onProgress: (p: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    xhr.withCredentials = true;
    xhr.setRequestHeader("Content-Type", file.type || "application/octet-stream");
    xhr.upload.onprogress = (ev) => {
      if (ev.lengthComputable) onProgress(ev.loaded / ev.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
      } else {
        reject(new UploadError("Failed to upload file", serverMessage(xhr.responseText, xhr.statusText)));
      }
    };
    xhr.onerror = () => reject(new UploadError("Failed to upload file", "Network error"));
    xhr.send(file);
  });
}

/**
 * uploadPhoto runs the three steps of one upload: a signed URL, the PUT of the bytes (with
 * progress) and the claim with filename and notes. Failures throw UploadError.
 */
export async function uploadPhoto(file: File, notes: string, onProgress: (p: number) => void): Promise<Photo> {
  let uploadURL: string;
  try {
    ({ uploadURL } = await apiRequest<{ uploadURL: string }>("POST", "/api/objects/upload"));
  } catch (error) {
    throw new UploadError("Failed to get upload URL", errorMessage(error, "Failed to get upload URL"));
  }
  await putFile(uploadURL, file, onProgress);
  try {
    const trimmed = notes.trim();
    return await apiRequest<Photo>("POST", "/api/photos/upload", {
      filename: file.name,
      url: uploadURL.split("?")[0],
      notes: trimmed === "" ? null : trimmed,
    });
  } catch (error) {
    throw new UploadError("Upload failed", errorMessage(error, "Upload failed"));
  }
}
