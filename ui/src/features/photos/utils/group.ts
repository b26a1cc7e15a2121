import type { Photo } from "@/features/photos/api/photos";

/** PhotoGroup is one uploader's photos, newest first. */
export type PhotoGroup = { uploaderId: string; name: string; email: string; photos: Photo[] };

/** uploaderName is 'First Last', else the email, else 'Unknown user'. */
export function uploaderName(p: Photo): string {
  const u = p.uploadedByUser;
  if (!u) return "Unknown user";
  return `${u.firstName} ${u.lastName}`.trim() || u.email;
}

/**
 * groupByUploader groups photos by uploader: each group newest first, groups ordered by
 * their latest upload (spec part 2 §2).
 */
export function groupByUploader(photos: Photo[]): PhotoGroup[] {
  const byUser = new Map<string, PhotoGroup>();
  const sorted = [...photos].sort((a, b) => b.uploadedAt.localeCompare(a.uploadedAt));
  for (const p of sorted) {
    // a deleted uploader's photos have no uploadedBy: grouped by the email kept on them
    const key = p.uploadedBy || `former:${p.uploadedByUser?.email ?? ""}`;
    let g = byUser.get(key);
    if (!g) {
      g = { uploaderId: key, name: uploaderName(p), email: p.uploadedByUser?.email ?? "", photos: [] };
      byUser.set(key, g);
    }
    g.photos.push(p);
  }
  return [...byUser.values()];
}

/** photoCountLabel is the spec's count label: 'N photo(s)'. */
export function photoCountLabel(n: number): string {
  return `${n} photo(s)`;
}

/** timestampedName names a camera capture: photo-YYYY-MM-DD-HH-MM-SS-mmm.jpg. */
export function timestampedName(d: Date): string {
  const iso = d.toISOString().replace("T", "-").replace("Z", "").replace(/[:.]/g, "-");
  return `photo-${iso}.jpg`;
}
