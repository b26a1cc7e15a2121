import { useQuery } from "@tanstack/react-query";
import { ExternalLinkIcon, SearchIcon } from "lucide-react";
import * as React from "react";
import { useSearchParams } from "react-router";
import { QueryStatus } from "@/components/query-status";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { formatDateTime } from "@/lib/format";
import { errorMessage } from "@/lib/api-client";
import { type FoundPack, packSearchQueryOptions } from "@/hq/api";
import { clause, possessive, searchError, serialFromInput } from "@/hq/format";
import { HqPageHeader } from "@/hq/shell";

/** stateWords is a pack state as the city's pack page names it ("in_transit" → "In transit"). */
export function stateWords(state: string): string {
  const s = state.replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * PackSearchScreen finds a pack by serial (or a pasted label URL) in every city: where it is,
 * its state, when it was last seen and a link to the city's own pack page. The search is in the
 * address (?q=), so a result can be shared and Back returns to it.
 */
export function PackSearchScreen() {
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const [text, setText] = React.useState(q);
  const [error, setError] = React.useState("");
  const id = React.useId();
  const search = useQuery({ ...packSearchQueryOptions(q), enabled: q !== "", meta: { silentError: true } });
  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    const msg = searchError(text);
    setError(msg);
    if (msg) return;
    setParams({ q: serialFromInput(text) });
  };
  const found = search.data;
  const unread = found?.cities.filter((c) => !c.ok) ?? [];
  return (
    <>
      <HqPageHeader title="Pack search" description="Find a pack in every city by its serial, or paste its label's address" />
      <form onSubmit={onSubmit} noValidate role="search" className="mb-6 grid max-w-xl gap-2">
        <Label htmlFor={`${id}-q`}>Serial or label URL</Label>
        <div className="flex gap-2">
          <Input
            id={`${id}-q`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="PAR-000123"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-err` : undefined}
          />
          <Button type="submit">
            <SearchIcon aria-hidden />
            Search
          </Button>
        </div>
        {error && (
          <p id={`${id}-err`} role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
      </form>
      {q !== "" && (
        <section aria-live="polite" aria-label="Results" className="grid gap-3">
          <QueryStatus query={search} skeletonClassName="h-24 w-full" error={errorMessage(search.error, "The search failed. Please try again.")} alert />
          {found && (
            <p className="text-sm text-muted-foreground">
              {found.packs.length === 0
                ? `No pack matches “${q}” in any city.`
                : `${found.packs.length} ${found.packs.length === 1 ? "pack matches" : "packs match"} “${q}”${found.packs.length >= 50 ? " (the first 50)" : ""}.`}
            </p>
          )}
          {unread.map((c) => (
            <p key={c.id} role="alert" className="text-sm text-destructive">
              {possessive(c.name)} packs could not be searched: {clause(c.error, "its copy is not available")}.
            </p>
          ))}
          {found && found.packs.length > 0 && (
            <ul className="grid gap-3 md:grid-cols-2">
              {found.packs.map((p) => (
                <li key={`${p.cityId}/${p.serial}`}>
                  <PackResult pack={p} />
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </>
  );
}

function PackResult({ pack }: { pack: FoundPack }) {
  return (
    <Card className="py-4">
      <CardContent className="grid gap-2 px-4 text-sm">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="font-mono text-base font-semibold">{pack.serial}</h2>
          <span className="text-muted-foreground">{pack.cityName}</span>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-muted-foreground">State</dt>
          <dd>{stateWords(pack.state)}</dd>
          <dt className="text-muted-foreground">Place</dt>
          <dd>{pack.place || "—"}</dd>
          <dt className="text-muted-foreground">Last seen</dt>
          <dd>{formatDateTime(pack.lastSeenAt) || "Never"}</dd>
          {(pack.model || pack.lot) && (
            <>
              <dt className="text-muted-foreground">Model, lot</dt>
              <dd className="break-words">{[pack.model, pack.lot && `lot ${pack.lot}`].filter(Boolean).join(", ")}</dd>
            </>
          )}
        </dl>
        <a href={pack.url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline">
          Open in {pack.cityName}
          <ExternalLinkIcon aria-hidden className="size-4" />
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      </CardContent>
    </Card>
  );
}
