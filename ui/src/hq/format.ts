// How head office's figures become words: lags, copies' states, money in each city's currency,
// stock states, a recall's progress per city. Pure functions (hq/format.test.ts).
import type { City, CityCopy, CountedTwice, RecallCity, Stock } from "@/hq/api";

/** STOCK_STATES are the overview's stock rows, in the order the city's dashboard shows them. */
export const STOCK_STATES: { key: keyof Stock; label: string }[] = [
  { key: "ready", label: "Ready" },
  { key: "waiting", label: "Waiting to charge" },
  { key: "charging", label: "Charging" },
  { key: "field", label: "In the field" },
  { key: "quarantined", label: "Quarantined" },
  { key: "inTransit", label: "In transit" },
];

/** durationWords says a number of seconds as a person would: "under a minute", "1 minute", "12 minutes", "3 hours", "2 days". */
export function durationWords(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 60) return "under a minute";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} hours`;
  return `${Math.floor(hours / 24)} days`;
}

/** behindSeconds is how far behind a copy is: its lag, or how long its replica has been silent when that is longer. */
export function behindSeconds(copy: Pick<CityCopy, "lagSeconds" | "replicaAgeSeconds">): number {
  return Math.max(copy.lagSeconds || 0, copy.replicaAgeSeconds || 0);
}

/** copyStateWords is a copy's state in words, for the Cities page. */
export function copyStateWords(copy: CityCopy): string {
  switch (copy.state) {
    case "following":
      return copy.lagSeconds < 1 ? "Up to date" : `Following, ${durationWords(copy.lagSeconds)} behind`;
    case "behind":
      return `Behind by ${durationWords(behindSeconds(copy))}`;
    case "restoring":
      return "Restoring a fresh copy";
    case "failed":
      return "Copy failed";
    case "stopped":
      return "Not followed";
    default:
      return copy.state;
  }
}

/** isFlagged: the copy's figures cannot be trusted to be current (behind, failed or restoring). */
export function isFlagged(copy: CityCopy): boolean {
  return copy.state === "behind" || copy.state === "failed" || copy.state === "restoring";
}

/**
 * bannerText is what every HQ screen's banner says of a flagged city's copy: "Paris's data is 7
 * minutes behind.", "… copy is being restored …", "… copy failed: <why>"; "" when the copy is fine.
 */
export function bannerText(city: Pick<City, "name" | "copy">): string {
  const { name, copy } = city;
  switch (copy.state) {
    case "behind":
      return `${possessive(name)} data is ${durationWords(behindSeconds(copy))} behind.${copy.warning ? ` ${copy.warning}` : ""}`;
    case "restoring":
      return `${possessive(name)} copy is being restored: its figures are missing until it is in.`;
    case "failed":
      return `${possessive(name)} copy failed: ${clause(copy.error || copy.warning, "head office cannot read its replica")}. Its figures may be out of date.`;
    default:
      return "";
  }
}

/** clause is a reason as a clause inside a sentence: trimmed, without its closing full stop. */
export function clause(reason: string | undefined, fallback: string): string {
  const r = (reason ?? "").trim().replace(/\.+$/, "");
  return r || fallback;
}

/** possessive is "Paris's" (the house style: 's after every name). */
export function possessive(name: string): string {
  return `${name}'s`;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** formatMoney says cents in a city's ISO 4217 currency ("€1,234.50"); an unknown code falls back to "1,234.50 XXX". */
export function formatMoney(cents: number, currency: string): string {
  let f = moneyFormats.get(currency);
  if (!f) {
    try {
      f = new Intl.NumberFormat("en", { style: "currency", currency });
    } catch {
      f = undefined;
    }
    if (f) moneyFormats.set(currency, f);
  }
  const amount = (cents || 0) / 100;
  if (f) return f.format(amount);
  return `${amount.toFixed(2)} ${currency}`;
}

const counts = new Intl.NumberFormat("en");

/** formatCount is a whole number with thousands separators. */
export function formatCount(n: number | undefined): string {
  return counts.format(n ?? 0);
}

/** sumSwaps is the swaps of a list of days. */
export function sumSwaps(days: { swaps: number }[] | undefined): number {
  return (days ?? []).reduce((t, d) => t + (d.swaps || 0), 0);
}

/** recallCityWords is a city's part of a recall in words: "sent / done / 4 packs quarantined", "waiting to be sent", "failed: …". */
export function recallCityWords(c: RecallCity): string {
  const quarantined = `${c.quarantined} of ${c.matching} ${c.matching === 1 ? "pack" : "packs"} quarantined`;
  if (c.send === "failed") return `Not sent: ${clause(c.error, "the city refused")}.`;
  if (c.lost) return c.error || "The city no longer has this recall: it went back to a backup from before it. Send it again.";
  if (c.send === "pending") return c.attempts > 0 ? `Not sent yet (tried ${c.attempts} ${c.attempts === 1 ? "time" : "times"}${c.error ? `: ${clause(c.error, "")}` : ""})` : "Waiting to be sent";
  return `Sent · ${c.done ? "done" : "in progress"} · ${quarantined}`;
}

/** RECALL_BY_LABEL names what a recall matches. */
export const RECALL_BY_LABEL: Record<string, string> = { lot: "Lot", model: "Model", manufacturer: "Manufacturer" };

/** serialFromInput reads what was typed or pasted into the pack search: a serial, or a label URL's serial (…/p/SERIAL). */
export function serialFromInput(raw: string): string {
  const s = raw.trim();
  const m = /\/p\/([^/?#\s]+)\/?(?:[?#].*)?$/i.exec(s);
  if (m) {
    try {
      return decodeURIComponent(m[1]!);
    } catch {
      return m[1]!;
    }
  }
  return s;
}

/** MSG_SEARCH_SHORT / MSG_SEARCH_LONG: the pack search's own bounds (the server's: 3..40 characters). */
export const MSG_SEARCH_SHORT = "Enter at least 3 characters of a serial.";
export const MSG_SEARCH_LONG = "A serial is at most 40 characters.";

/** searchError is the pack search's message for what was typed, "" when it can be sent. */
export function searchError(raw: string): string {
  const s = serialFromInput(raw);
  if (s.length < 3) return MSG_SEARCH_SHORT;
  if (s.length > 40) return MSG_SEARCH_LONG;
  return "";
}

/** andWords joins names as a sentence does: "Paris", "Paris and Berlin", "Paris, Berlin and Lisbon". */
export function andWords(items: string[]): string {
  if (items.length < 2) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** countedStateWords is a pack state a city counts, inside a sentence: "in service", "in maintenance", "quarantined". */
export function countedStateWords(state: string): string {
  switch (state) {
    case "in_service":
      return "in service";
    case "maintenance":
      return "in maintenance";
    default:
      return state.replace(/_/g, " ");
  }
}

/**
 * countedTwiceWords is what follows a serial counted in two cities: "in service in Paris and in
 * Berlin (received by Berlin)"; states that differ are each named ("in service in Paris and
 * quarantined in Berlin (received by Berlin)").
 */
export function countedTwiceWords(row: CountedTwice): string {
  const same = row.cities.every((c) => c.state === row.cities[0]?.state);
  const where = same
    ? `${countedStateWords(row.cities[0]?.state ?? "")} ${andWords(row.cities.map((c) => `in ${c.cityName}`))}`
    : andWords(row.cities.map((c) => `${countedStateWords(c.state)} in ${c.cityName}`));
  return `${where} (received by ${row.receivedBy})`;
}

/** CountedTwiceGroup is the serials one city received that the same other cities still count, and what to do. */
export type CountedTwiceGroup = { key: string; receivedBy: string; others: string[]; advice: string; label: string; rows: CountedTwice[] };

/**
 * countedTwiceGroups groups inTwoCities by the city that received the packs and the cities that
 * still count them besides it (in the answer's order), each with its advice: "Paris deleted or
 * lost its send after Berlin received these packs. Count Paris's shelves (Packs → Stocktake): a
 * pack not found there leaves its counts."
 */
export function countedTwiceGroups(rows: CountedTwice[]): CountedTwiceGroup[] {
  const groups = new Map<string, CountedTwiceGroup>();
  for (const row of rows) {
    const counting = row.cities.filter((c) => c.cityId !== row.receivedByCityId);
    const others = counting.map((c) => c.cityName);
    const key = `${row.receivedByCityId}>${counting.map((c) => c.cityId).join(",")}`;
    let g = groups.get(key);
    if (!g) {
      const r = row.receivedBy;
      const [only] = others;
      const advice =
        others.length === 1 && only !== undefined
          ? `${only} deleted or lost its send after ${r} received these packs. Count ${possessive(only)} shelves (Packs → Stocktake): a pack not found there leaves its counts.`
          : `${andWords(others)} still count these packs after ${r} received them. Count each one's shelves (Packs → Stocktake): a pack not found there leaves its counts.`;
      const label = `Packs ${r} received that ${andWords(others)} still ${others.length === 1 ? "counts" : "count"}`;
      g = { key, receivedBy: r, others, advice, label, rows: [] };
      groups.set(key, g);
    }
    g.rows.push(row);
  }
  return [...groups.values()];
}
