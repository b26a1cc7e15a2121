import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/hooks/use-toast";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { newIdempotencyKey } from "@/lib/idempotency";
import { afterWrite } from "@/lib/invalidation";
import { defineAction } from "@/features/outbox/api/actions";
import { sendQueuedPhoto } from "@/features/outbox/api/photo-upload";

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
export const photosQueryOptions = queryOptions<Photo[]>({
  queryKey: ["/api/photos"],
  meta: { staleOn: ["photos"] },
  refetchInterval: PHOTOS_POLL_MS,
});

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
    onSettled: () => afterWrite(qc, "photos"),
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
    onSettled: () => afterWrite(qc, "photos"),
  });
}

/** photoAction is a photo kept in the outbox (body {filename, notes}, the bytes as its blob). */
export const photoAction = defineAction({
  kind: "photo",
  send: sendQueuedPhoto,
  label: (b) => `Photo · ${typeof b.filename === "string" ? b.filename : "photo"}`,
  refreshes: ["photos"],
});
