import { afterEach, describe, expect, it } from "vitest";
import { confirmText } from "@/features/stocktake/components/stocktake-page";
import type { StocktakeAnswer } from "@/features/stocktake/api/stocktake";
import { EMPTY_DRAFT, MAX_SERIALS, addScanned, clearDraft, draftKey, loadDraft, removeScanned, saveDraft } from "@/features/stocktake/utils/draft";
import { serialFromCode } from "@/lib/serial";

afterEach(() => localStorage.clear());

describe("a stocktake in progress", () => {
  it("adds codes in scan order, read by the one serial parser, each once", () => {
    let d = addScanned(EMPTY_DRAFT, serialFromCode("https://bay.example/p/swb-000001")).draft;
    d = addScanned(d, serialFromCode(" SWB-000002 ")).draft;
    expect(d.serials).toEqual(["SWB-000001", "SWB-000002"]);
    expect(addScanned(d, serialFromCode("swb-000001"))).toEqual({ draft: d, result: "duplicate" });
    expect(addScanned(d, serialFromCode("https://example.com/other"))).toEqual({ draft: d, result: "wrong" });
    expect(removeScanned(d, "SWB-000001").serials).toEqual(["SWB-000002"]);
  });

  it("forgets the apply's key when the list changes: a key is never sent again with another list (409 idempotency_key_reused)", () => {
    const pending = { place: "ready" as const, serials: ["SWB-000001"], key: "k-1" };
    expect(addScanned(pending, "SWB-000002").draft).toEqual({ place: "ready", serials: ["SWB-000001", "SWB-000002"] });
    expect(removeScanned(pending, "SWB-000001")).toEqual({ place: "ready", serials: [] });
    // nothing changed: the same list keeps its key
    expect(addScanned(pending, "SWB-000001").draft).toBe(pending);
    expect(removeScanned(pending, "SWB-000009")).toBe(pending);
  });

  it("stops at the server's limit", () => {
    const full = { ...EMPTY_DRAFT, serials: Array.from({ length: MAX_SERIALS }, (_, i) => `P-${i}`) };
    expect(addScanned(full, "P-X").result).toBe("full");
  });

  it("is kept under the user's id until it is cleared", () => {
    saveDraft("user1", { place: "waiting", serials: ["SWB-000001"], key: "k-1" });
    expect(loadDraft("user1")).toEqual({ place: "waiting", serials: ["SWB-000001"], key: "k-1" });
    expect(loadDraft("user2")).toEqual(EMPTY_DRAFT); // another admin on the same phone starts afresh
    clearDraft("user1");
    expect(loadDraft("user1")).toEqual(EMPTY_DRAFT);
    expect(localStorage.getItem(draftKey("user1"))).toBeNull();
  });

  it("forgets an empty draft and survives damaged storage", () => {
    saveDraft("u", EMPTY_DRAFT);
    expect(localStorage.getItem(draftKey("u"))).toBeNull();
    localStorage.setItem(draftKey("u"), "{not json");
    expect(loadDraft("u")).toEqual(EMPTY_DRAFT);
    localStorage.setItem(draftKey("u"), JSON.stringify({ place: "roof", serials: ["A"] }));
    expect(loadDraft("u")).toEqual(EMPTY_DRAFT);
    localStorage.setItem(draftKey("u"), JSON.stringify({ place: "bay", serials: ["A", 3, null] }));
    expect(loadDraft("u")).toEqual({ place: "bay", serials: ["A"] });
  });
});

describe("the apply's confirmation", () => {
  it("says what the stocktake will do", () => {
    const a = {
      place: "ready",
      counts: { scanned: 10, expected: 11, found: 9, missing: 2, unexpected: 1, wrongPlace: 0, unknown: 0, before: 12, after: 10 },
    } as StocktakeAnswer;
    expect(confirmText(a)).toBe("Ready shelf will count 10 (now 12). 2 packs missing will be marked lost. 1 pack unexpected will be moved here.");
  });
});
