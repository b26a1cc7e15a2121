import { ChevronRightIcon, PackageIcon, TriangleAlertIcon } from "lucide-react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { paths } from "@/config/paths";
import { heldPacksQueryOptions as HELD, mustComeBack } from "@/features/packs/api/get-packs";

/** SHOWN is how many serials the line names before "+N more". */
const SHOWN = 3;

/**
 * HeldPacksLink is the driver home's "Packs you hold" line (DESIGN.md §14): how many named packs
 * the driver holds and the first serials, a link to My packs. For a driver GET /api/packs
 * answers only the packs they hold; with none (tracking off, or no pack named) it renders nothing.
 * A failed load (offline, say) shows nothing either, without the data-load toast: the line is a
 * pointer, not the home's data. Packs recalled or quarantined while the driver holds them are
 * named first, in red: they must come back to the bay (DESIGN.md §14).
 */
export function HeldPacksLink() {
  const { data } = useQuery({ ...HELD, meta: { ...HELD.meta, silentError: true } });
  if (!data || data.total === 0) return null;
  const back = data.packs.filter(mustComeBack);
  const serials = [...back, ...data.packs.filter((p) => !mustComeBack(p))].slice(0, SHOWN).map((p) => p.serial);
  const more = data.total - serials.length;
  return (
    <Link
      to={paths.packs.path}
      className="flex min-w-0 items-center gap-3 rounded-xl border bg-card px-4 py-3 text-sm outline-none hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      <PackageIcon aria-hidden className="size-5 shrink-0 text-muted-foreground" />
      <span className="min-w-0 flex-1">
        <span className="block font-medium">
          Packs you hold: <span className="tabular-nums">{data.total}</span>
        </span>
        <span className="block truncate font-mono text-xs text-muted-foreground">
          {serials.join(", ")}
          {more > 0 ? ` +${more} more` : ""}
        </span>
        {back.length > 0 && (
          <span className="mt-1 flex items-start gap-1 font-medium text-destructive">
            <TriangleAlertIcon aria-hidden className="mt-0.5 size-4 shrink-0" />
            <span className="min-w-0">
              {back.length === 1 ? `${back[0]!.serial}: ${back[0]!.recall ? "recalled" : "quarantined"} — bring it to the bay` : `${back.length} packs recalled — bring them to the bay`}
            </span>
          </span>
        )}
      </span>
      <ChevronRightIcon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
    </Link>
  );
}
