import { describe, expect, it } from "vitest";
import { MSG_NOT_MANIFEST, readManifest } from "@/features/transfers/utils/manifest";

function encode(v: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(v));
  const b64 = btoa(String.fromCharCode(...bytes));
  return "SWBT1." + b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

describe("readManifest", () => {
  it("reads the sender, the ref and the packs (serials upper-cased)", () => {
    const r = readManifest(encode({ v: 1, ref: "abc", from: { name: "Paris", address: "https://paris.example" }, to: "Berlin", at: "2026-11-28T10:00:00Z", packs: [{ serial: "par-000001", model: "M1", lot: "L1" }] }));
    expect(r).toEqual({
      manifest: { ref: "abc", from: { name: "Paris", address: "https://paris.example" }, to: "Berlin", at: "2026-11-28T10:00:00Z", packs: [{ serial: "PAR-000001", model: "M1", lot: "L1" }] },
    });
  });
  it("reads names in any script", () => {
    const r = readManifest(encode({ v: 1, ref: "abc", from: { name: "Zürich", address: "" }, packs: [] }));
    expect("manifest" in r && r.manifest.from.name).toBe("Zürich");
  });
  it("refuses what is not a manifest, says nothing of an empty field", () => {
    expect(readManifest("")).toEqual({ error: "" });
    expect(readManifest("hello")).toEqual({ error: MSG_NOT_MANIFEST });
    expect(readManifest("SWBT1.!!!")).toEqual({ error: MSG_NOT_MANIFEST });
    expect(readManifest(encode({ v: 2, packs: [] }))).toEqual({ error: MSG_NOT_MANIFEST });
    expect(readManifest(encode([1, 2]))).toEqual({ error: MSG_NOT_MANIFEST });
  });
});
