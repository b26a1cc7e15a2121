import { paths } from "@/config/paths";

/** transferPath is the page of transfer id. */
export function transferPath(id: string): string {
  return paths.transfer.path.replace(":id", encodeURIComponent(id));
}

/** packsWord is "1 pack" or "N packs". */
export function packsWord(n: number): string {
  return n === 1 ? "1 pack" : `${n} packs`;
}

/** quarantinedOnArrival says which packs a receive took arrived quarantined (a recall of this city names their lot, model or manufacturer), or "" when none did. */
export function quarantinedOnArrival(t: { serials: string[]; states?: Record<string, string> }): string {
  const q = t.serials.filter((s) => t.states?.[s] === "quarantined");
  if (q.length === 0) return "";
  return `${q.length === 1 ? `${q[0]} is` : `${packsWord(q.length)} are`} quarantined: this city has recalled ${q.length === 1 ? "its" : "their"} lot, model or manufacturer.`;
}
