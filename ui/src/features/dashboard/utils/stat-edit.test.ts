import { describe, expect, it } from "vitest";
import { statsBody } from "@/features/dashboard/api/update-stats";
import { parseStatEdit } from "@/features/dashboard/utils/stat-edit";

describe("parseStatEdit", () => {
  it.each([
    ["12", { kind: "save", value: 12 }],
    [" 7 ", { kind: "save", value: 7 }],
    ["0", { kind: "close" }],
    ["-1", { kind: "invalid" }],
    ["1.5", { kind: "invalid" }],
    ["abc", { kind: "invalid" }],
    ["", { kind: "invalid" }],
  ])("%j → %j", (raw, want) => {
    expect(parseStatEdit(raw)).toEqual(want);
  });
});

describe("statsBody", () => {
  it("sends the full stats object with the edited stat replaced", () => {
    const stats = { total: 160, ready: 100, waiting: 30, charging: 10, inField: 20, unaccounted: 0 };
    expect(statsBody(stats, "waiting", 25)).toEqual({ total: 160, ready: 100, waiting: 25, charging: 10, inField: 20 });
  });
});
