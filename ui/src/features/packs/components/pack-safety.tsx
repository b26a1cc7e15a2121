import { TriangleAlertIcon } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { paths } from "@/config/paths";
import type { PackEvent } from "@/features/packs/api/get-pack";
import { mustComeBack, type PackSummary } from "@/features/packs/api/get-packs";
import { cn } from "@/lib/utils";

/** BRING_BACK is the driver's badge on a recalled or quarantined pack they hold. */
export const BRING_BACK = "Recalled — bring it to the bay";

/** bringBackText is the badge of a pack its holder must bring back ("Recalled…" or "Quarantined…"). */
export function bringBackText(p: Pick<PackSummary, "state" | "recall">): string {
  return p.recall ? BRING_BACK : "Quarantined — bring it to the bay";
}

/** packCount is "1 pack" / "24 packs". */
export function packCount(n: number): string {
  return `${n} ${n === 1 ? "pack" : "packs"}`;
}

/** recallPath is the page of one recall. */
export function recallPath(id: string): string {
  return paths.packRecall.path.replace(":id", encodeURIComponent(id));
}

/** BringBackBadge marks a pack its holder must bring to the bay (nothing for any other pack). */
export function BringBackBadge({ pack, className }: { pack: Pick<PackSummary, "state" | "recall">; className?: string }) {
  if (!mustComeBack(pack)) return null;
  return (
    <Badge variant="destructive" className={cn("whitespace-normal", className)}>
      <TriangleAlertIcon aria-hidden />
      {bringBackText(pack)}
    </Badge>
  );
}

/**
 * BringBackNotice is the banner on a recalled or quarantined pack's page: for its holder, bring
 * it back; for an admin, the recall's reason and page.
 */
export function BringBackNotice({ pack, admin }: { pack: PackSummary; admin: boolean }) {
  // an admin reads the state from the badge and decides below; a recall says why and links to it
  if (!mustComeBack(pack) || (admin && !pack.recall)) return null;
  return (
    <div role="status" className="flex gap-3 rounded-lg border border-destructive/50 bg-destructive/5 px-4 py-3 text-sm">
      <TriangleAlertIcon aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive" />
      <div className="min-w-0 space-y-1">
        <p className="font-medium text-destructive">{admin ? "Recalled" : bringBackText(pack)}</p>
        {pack.recall?.reason && <p className="break-words">{pack.recall.reason}</p>}
        {!admin && <p>Do not hand it out or charge it. Bring it to the bay at your next dropoff.</p>}
        {admin && pack.recall && (
          <Link to={recallPath(pack.recall.id)} className="underline underline-offset-4">
            See the recall
          </Link>
        )}
      </div>
    </div>
  );
}

/** photoThumbUrl is a photo's 400×400 thumbnail (GET /api/photos/{id}/image?thumb=1). */
export function photoThumbUrl(id: string): string {
  return `/api/photos/${encodeURIComponent(id)}/image?thumb=1`;
}

/** EventPhotos shows a history event's photos (a damage report's) and, given recallId, a link to its recall. */
export function EventPhotos({ event, recallId }: { event: PackEvent; recallId: string }) {
  const photos = event.photos ?? [];
  return (
    <>
      {photos.length > 0 && (
        <ul aria-label="Photos of the report" className="mt-2 flex flex-wrap gap-2">
          {photos.map((id, i) => (
            <li key={id}>
              <a href={`/api/photos/${encodeURIComponent(id)}/image`} target="_blank" rel="noreferrer">
                <img src={photoThumbUrl(id)} alt={`Photo ${i + 1} of the damage report`} loading="lazy" className="size-20 rounded-md border object-cover" />
              </a>
            </li>
          ))}
        </ul>
      )}
      {recallId && (
        <Link to={recallPath(recallId)} className="text-sm underline underline-offset-4">
          See the recall
        </Link>
      )}
    </>
  );
}
