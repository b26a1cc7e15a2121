import * as React from "react";
import { Link, useSearchParams } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { OptionSelect } from "@/components/option-select";
import { PageHeader } from "@/components/layouts/app-shell";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { paths } from "@/config/paths";
import { PACK_STATES, mustComeBack, usePacks, type PackFilters } from "@/features/packs/api/get-packs";
import { packStateLabel } from "@/lib/pack-state";
import { ImportPacksDialog } from "@/features/packs/components/import-packs-dialog";
import { ImportReadingsDialog } from "@/features/packs/components/import-readings-dialog";
import { ListStatus } from "@/features/packs/components/list-status";
import { MintPacksDialog } from "@/features/packs/components/mint-packs-dialog";
import { MissingPacks } from "@/features/packs/components/missing-packs";
import { BringBackBadge } from "@/features/packs/components/pack-safety";
import { RecallPacksDialog } from "@/features/packs/components/recall-packs-dialog";
import { PackStateBadge } from "@/components/pack-state-badge";
import { WornBadge, formatPercent } from "@/features/packs/components/pack-health-format";
import { packPath } from "@/features/packs/utils/pack-path";
import { formatRelativeTime } from "@/lib/format";

const LOCATIONS = [
  { value: "all", label: "Anywhere" },
  { value: "ready", label: "Ready" },
  { value: "waiting", label: "Waiting (dead)" },
  { value: "charging", label: "On a charger" },
  { value: "field", label: "In the field" },
  { value: "unknown", label: "Unknown" },
] as const;

/** initialFilters reads the filters a link opened the list with (?state=, ?location=, ?missing=1, ?worn=1, ?lot=). */
export function initialFilters(params: URLSearchParams): PackFilters {
  const f: PackFilters = {};
  const state = params.get("state");
  if (state && (PACK_STATES as readonly string[]).includes(state)) f.state = state;
  const location = params.get("location");
  if (location && location !== "all" && LOCATIONS.some((l) => l.value === location)) f.location = location;
  if (params.get("missing") === "1") f.missing = true;
  if (params.get("worn") === "1") f.worn = true;
  const lot = params.get("lot")?.trim();
  if (lot) f.lot = lot;
  return f;
}

/** filterParams is the page's query string for filters (what initialFilters reads back): a reload or a shared link keeps them. */
export function filterParams(f: PackFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.state) params.set("state", f.state);
  if (f.location) params.set("location", f.location);
  if (f.missing) params.set("missing", "1");
  if (f.worn) params.set("worn", "1");
  if (f.lot?.trim()) params.set("lot", f.lot.trim());
  return params;
}

/**
 * PacksPage is /packs (DESIGN.md §14): counts per state (each a filter), search by serial, the
 * location, lot, missing and worn (§16) filters, kept in the URL, and the packs, each a link to
 * its page, a worn one marked with its reason. Admins mint, import packs and readings, and
 * recall here. A driver sees "My packs": only the packs they hold, a recalled or
 * quarantined one marked to be brought back. Missing lists the packs not seen for N days with
 * their last holder (issue 37 item 4).
 */
export function PacksPage({ admin, driver }: { admin: boolean; driver: boolean }) {
  const [params, setParams] = useSearchParams();
  // a link may open the list filtered (the attention strip: ?state=quarantined, ?missing=1, ?worn=1)
  const [filters, setFilters] = React.useState<PackFilters>(() => initialFilters(params));
  // and the filters chosen here stay in the URL (a reload, Back, a shared link)
  const query = filterParams(filters).toString();
  React.useEffect(() => {
    setParams((old) => (old.toString() === query ? old : new URLSearchParams(query)), { replace: true });
  }, [query, setParams]);
  // a link to the list from the list (the readings import's "See worn packs") applies its filters
  const linked = params.toString();
  const [seen, setSeen] = React.useState(linked);
  if (seen !== linked) {
    setSeen(linked);
    if (linked !== query) setFilters((old) => ({ ...initialFilters(params), q: old.q }));
  }
  const [search, setSearch] = React.useState("");
  const set = (f: Partial<PackFilters>) => setFilters((old) => ({ ...old, page: 1, ...f }));
  React.useEffect(() => {
    const t = setTimeout(() => setFilters((old) => (old.q === search ? old : { ...old, q: search, page: 1 })), 250);
    return () => clearTimeout(t);
  }, [search]);
  const packs = usePacks(filters);
  const data = packs.data;
  const ids = React.useId();
  const title = driver ? "My packs" : "Packs";
  const pages = data ? Math.max(1, Math.ceil(data.total / data.perPage)) : 1;
  // a filter that is on or off (Missing, Worn): red while on, with the packs it finds
  const flagFilter = (flag: "missing" | "worn", label: string, title: string) => (
    <Button variant={filters[flag] ? "destructive" : "outline"} size="sm" aria-pressed={!!filters[flag]} onClick={() => set({ [flag]: !filters[flag] })} title={title}>
      {label} {filters[flag] && data ? data.total : ""}
    </Button>
  );
  return (
    <>
      <PageHeader title={title} description={driver ? "The battery packs you hold, by serial." : "Every battery pack by serial: where it is, its state and its history."}>
        {admin && (
          <div className="flex flex-wrap gap-2">
            <MintPacksDialog />
            <ImportPacksDialog />
            <ImportReadingsDialog />
            <RecallPacksDialog />
            <ButtonLink variant="ghost" to={paths.packRecalls.path}>Recalls</ButtonLink>
            <ButtonLink variant="outline" to={paths.stocktake.path}>Stocktake</ButtonLink>
            <ButtonLink variant="outline" to={paths.transferSend.path}>Send to another city</ButtonLink>
            <ButtonLink variant="ghost" to={paths.transfers.path}>Transfers</ButtonLink>
            <ButtonLink variant="ghost" to={paths.packModels.path}>Models</ButtonLink>
          </div>
        )}
        {!admin && !driver && (
          <ButtonLink variant="ghost" to={paths.packModels.path}>Models</ButtonLink>
        )}
      </PageHeader>
      <div className="space-y-4">
        {!driver && (
          <div role="group" aria-label="Packs by state" className="flex flex-wrap gap-2">
            <Button
              variant={!filters.state && !filters.missing && !filters.worn ? "default" : "outline"}
              size="sm"
              aria-pressed={!filters.state && !filters.missing && !filters.worn}
              onClick={() => set({ state: undefined, missing: false, worn: false })}
            >
              All {data ? PACK_STATES.reduce((n, s) => n + (data.counts[s] ?? 0), 0) : ""}
            </Button>
            {PACK_STATES.map((s) => (
              <Button key={s} variant={filters.state === s ? "default" : "outline"} size="sm" aria-pressed={filters.state === s} onClick={() => set({ state: filters.state === s ? undefined : s })}>
                {packStateLabel(s)} {data?.counts[s] ?? ""}
              </Button>
            ))}
            {flagFilter("missing", "Missing", `Not seen for ${data?.missingDays ?? 7} days or more`)}
            {flagFilter("worn", "Worn", "Under their model's state-of-health threshold, or losing 3 points in 30 days")}
          </div>
        )}
        {filters.worn && (
          <p className="text-sm text-muted-foreground">
            Packs under their model&apos;s state-of-health threshold, or that lost 3 points or more in 30 days. Thresholds are set per{" "}
            <Link to={paths.packModels.path} className="underline underline-offset-4">
              model
            </Link>
            .
          </p>
        )}
        {filters.missing && <p className="text-sm text-muted-foreground">Packs not seen for {data?.missingDays ?? 7} days or more, with who had them last. A pack scanned again leaves this list.</p>}
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <div className="grid gap-1.5">
            <Label htmlFor={`${ids}-q`}>Search serial</Label>
            <Input id={`${ids}-q`} type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="SWB-000123" autoComplete="off" />
          </div>
          {!driver && (
            <>
              <div className="grid gap-1.5">
                <Label htmlFor={`${ids}-loc`}>Location</Label>
                <OptionSelect
                  id={`${ids}-loc`}
                  className="w-full"
                  value={filters.location ?? "all"}
                  onValueChange={(v) => set({ location: v === "all" ? undefined : v })}
                  options={LOCATIONS}
                />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor={`${ids}-lot`}>Lot</Label>
                <Input id={`${ids}-lot`} value={filters.lot ?? ""} onChange={(e) => set({ lot: e.target.value })} autoComplete="off" />
              </div>
            </>
          )}
        </div>
        <ListStatus
          query={packs}
          error="Could not load the packs."
          empty={(d) =>
            d.packs.length === 0 &&
            (driver ? "You hold no named packs." : filters.missing ? "No pack is missing." : filters.worn && !filters.state && !filters.lot && !filters.q ? "No pack is worn." : "No packs match.")
          }
        >
          {(d) =>
            filters.missing ? (
              <MissingPacks packs={d.packs} admin={admin} packPath={packPath} />
            ) : (
              <ul aria-label={title} className="divide-y rounded-lg border bg-card">
                {d.packs.map((p) => (
                  <li key={p.id}>
                    <Link to={packPath(p.serial)} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 hover:bg-muted/50 focus-visible:bg-muted/50 focus-visible:outline-none">
                      <span className="font-mono font-semibold">{p.serial}</span>
                      {/* a driver reads "bring it back" instead of the state it comes from */}
                      {driver && mustComeBack(p) ? <BringBackBadge pack={p} /> : <PackStateBadge state={p.state} />}
                      {p.missing && <span className="text-xs font-medium text-destructive">Missing</span>}
                      {p.worn && <WornBadge />}
                      {p.soh !== undefined && <span className="text-xs text-muted-foreground">Health {formatPercent(p.soh)}</span>}
                      <span className="min-w-0 basis-full text-sm text-muted-foreground sm:ml-auto sm:basis-auto">
                        {p.location?.label ?? "Unknown"}
                        {p.lastSeen ? ` · seen ${formatRelativeTime(p.lastSeen.at)}` : " · never scanned"}
                      </span>
                      {p.worn && p.wornReason && <span className="basis-full text-sm text-amber-900">{p.wornReason}</span>}
                    </Link>
                  </li>
                ))}
              </ul>
            )
          }
        </ListStatus>
        {data && pages > 1 && (
          <nav aria-label="Pages" className="flex items-center justify-between gap-2">
            <Button variant="outline" size="sm" disabled={(filters.page ?? 1) <= 1} onClick={() => setFilters((f) => ({ ...f, page: (f.page ?? 1) - 1 }))}>
              Previous
            </Button>
            <span className="text-sm text-muted-foreground">
              Page {filters.page ?? 1} of {pages} ({data.total} packs)
            </span>
            <Button variant="outline" size="sm" disabled={(filters.page ?? 1) >= pages} onClick={() => setFilters((f) => ({ ...f, page: (f.page ?? 1) + 1 }))}>
              Next
            </Button>
          </nav>
        )}
      </div>
    </>
  );
}
