// A transfer's manifest as the Receive screen reads it before sending (the server checks it
// again: modules/transfers Decode). `SWBT1.` + base64url(JSON {v, ref, from: {name, address}, to,
// at, packs: [{serial, model, …}]}).

/** MANIFEST_PREFIX starts every manifest (version 1). */
export const MANIFEST_PREFIX = "SWBT1.";

/** ManifestPack is one pack's identity in a manifest. */
export type ManifestPack = { serial: string; model: string; lot: string };

/** Manifest is what the Receive screen shows of a pasted manifest. */
export type Manifest = { ref: string; from: { name: string; address: string }; to: string; at: string; packs: ManifestPack[] };

/** MSG_NOT_MANIFEST is shown for text that is not a manifest. */
export const MSG_NOT_MANIFEST = "This is not a SwapBay transfer manifest: copy it again from the sending city's transfer page";

function text(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** readManifest reads a pasted manifest, or answers why it cannot. */
export function readManifest(raw: string): { manifest: Manifest } | { error: string } {
  const s = raw.trim();
  if (!s) return { error: "" };
  if (!s.startsWith(MANIFEST_PREFIX)) return { error: MSG_NOT_MANIFEST };
  try {
    const b64 = s.slice(MANIFEST_PREFIX.length).replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
    const bin = atob(b64 + "===".slice((b64.length + 3) % 4));
    const json: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
    if (!json || typeof json !== "object") return { error: MSG_NOT_MANIFEST };
    const m = json as Record<string, unknown>;
    if (m.v !== 1 || !Array.isArray(m.packs)) return { error: MSG_NOT_MANIFEST };
    const from = (m.from ?? {}) as Record<string, unknown>;
    const packs = (m.packs as unknown[]).map((p) => {
      const x = (p ?? {}) as Record<string, unknown>;
      return { serial: text(x.serial).toUpperCase(), model: text(x.model), lot: text(x.lot) };
    });
    return { manifest: { ref: text(m.ref), from: { name: text(from.name), address: text(from.address) }, to: text(m.to), at: text(m.at), packs } };
  } catch {
    return { error: MSG_NOT_MANIFEST };
  }
}
