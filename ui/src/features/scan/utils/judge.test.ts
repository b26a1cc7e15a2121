// @vitest-environment node
import { describe, expect, it } from "vitest";
import { judgeSerial, refusedOf } from "@/features/scan/utils/judge";

const OUT = new Map([["SWB-000002", { code: "pack_quarantined", message: "Pack SWB-000002 is quarantined and cannot be handed out" }]]);
const QUEUED = new Map([["SWB-000003", "Pickup · 1 battery · 1 pack"]]);

describe("judging a scan", () => {
  it("refuses an out-of-use pack handed out, in the server's words; not one returned", () => {
    expect(judgeSerial("swb-000002", true, OUT, QUEUED)).toEqual({ refused: true, code: "pack_quarantined", message: "Pack SWB-000002 is quarantined and cannot be handed out" });
    expect(judgeSerial("SWB-000002", false, OUT, QUEUED)).toEqual({ ok: true });
    expect(judgeSerial("SWB-000001", true, OUT, QUEUED)).toEqual({ ok: true });
  });
  it("refuses a worn pack handed out in the server's words with its reason (pack_worn, issue 46); not one returned", () => {
    const why = "Pack SWB-000004 is worn and cannot be handed out: Lost 4 points of state of health in 30 days";
    const out = new Map([...OUT, ["SWB-000004", { code: "pack_worn", message: why }]]);
    expect(judgeSerial("swb-000004", true, out, QUEUED)).toEqual({ refused: true, code: "pack_worn", message: why });
    expect(judgeSerial("SWB-000004", false, out, QUEUED)).toEqual({ ok: true });
  });
  it("refuses a pack sent to another city whatever the purpose (pack_in_transit, issue 45)", () => {
    const why = "Pack PAR-000001 was sent to another city and cannot be moved here";
    const out = new Map([["PAR-000001", { code: "pack_in_transit", message: why }]]);
    expect(judgeSerial("par-000001", true, out, QUEUED)).toEqual({ refused: true, code: "pack_in_transit", message: why });
    expect(judgeSerial("PAR-000001", false, out, QUEUED)).toEqual({ refused: true, code: "pack_in_transit", message: why });
  });
  it("notes a pack a queued action already names", () => {
    expect(judgeSerial("SWB-000003", true, OUT, QUEUED)).toEqual({ ok: true, note: "Already in a queued action: Pickup · 1 battery · 1 pack" });
  });
  it("lists the refused serials of a list with their reasons", () => {
    const judge = (s: string) => judgeSerial(s, true, OUT, QUEUED);
    expect(refusedOf(["SWB-000001", "SWB-000002", "SWB-000003"], judge)).toEqual({ "SWB-000002": "Pack SWB-000002 is quarantined and cannot be handed out" });
    expect(refusedOf(["SWB-000001"], judge)).toEqual({});
  });
});
