import { describe, expect, it } from "vitest";
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
