// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  chargerBadgeClass,
  earliestEtaFirst,
  etaEntries,
  isOverdue,
  quantityChange,
  sessionStatus,
} from "@/features/charging/utils/session-status";

const now = new Date("2026-11-21T12:00:30Z");

describe("sessionStatus / isOverdue", () => {
  it("is Charging before the ETA and Due at or after it", () => {
    expect(sessionStatus("2026-11-21T12:05:00Z", now)).toBe("Charging");
    expect(sessionStatus("2026-11-21T12:00:30Z", now)).toBe("Due");
    expect(sessionStatus("2026-11-21T11:00:00Z", now)).toBe("Due");
    expect(sessionStatus("", now)).toBe("Charging");
  });
  it("marks only past ETAs overdue", () => {
    expect(isOverdue("2026-11-21T11:59:00Z", now)).toBe(true);
    expect(isOverdue("2026-11-21T12:01:00Z", now)).toBe(false);
  });
});

describe("etaEntries", () => {
  it("keeps the two soonest sessions with an ETA", () => {
    const s = [
      { id: "c", etaAt: "2026-11-21T15:00:00Z" },
      { id: "x", etaAt: "" },
      { id: "a", etaAt: "2026-11-21T13:00:00Z" },
      { id: "b", etaAt: "2026-11-21T14:00:00Z" },
    ];
    expect(etaEntries(s).map((x) => x.id)).toEqual(["a", "b"]);
    expect(earliestEtaFirst(s).map((x) => x.id)).toEqual(["a", "b", "c", "x"]);
  });
});

describe("quantityChange", () => {
  it("tells unchanged, reduced and increased apart", () => {
    expect(quantityChange(5, "5")).toEqual({ kind: "none" });
    expect(quantityChange(5, "abc")).toEqual({ kind: "none" });
    expect(quantityChange(5, "2")).toEqual({ kind: "reduce", by: 3 });
    expect(quantityChange(5, "0")).toEqual({ kind: "reduce", by: 5 });
    expect(quantityChange(5, "7")).toEqual({ kind: "increase", by: 2 });
  });
});

describe("chargerBadgeClass", () => {
  it("gives each charger type its own colour", () => {
    const classes = new Set(["2.5A", "4A", "5A"].map(chargerBadgeClass));
    expect(classes.size).toBe(3);
  });
});
