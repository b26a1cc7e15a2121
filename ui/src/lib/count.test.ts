// @vitest-environment node
import { describe, expect, it } from "vitest";
import { count, MAX_COUNT, parseInlineCount, wholeNumber } from "@/lib/count";

const run = (schema: ReturnType<typeof count>, text: string) => {
  const r = schema.safeParse(text);
  return r.success ? r.data : r.error.issues[0]?.message;
};

describe("count", () => {
  const quantity = count({
    min: 1,
    max: 4,
    required: "Quantity is required",
    message: "Quantity must be a whole number",
    tooSmall: "Quantity must be at least 1",
    tooLarge: "Only 4 batteries are waiting to charge",
  });

  it("gives a JSON number for a whole number within bounds, spaces trimmed", () => {
    expect(run(quantity, "3")).toBe(3);
    expect(run(quantity, " 4 ")).toBe(4);
    expect(JSON.stringify({ quantity: run(quantity, "2") })).toBe('{"quantity":2}');
  });

  it("names each failure with its own message", () => {
    expect(run(quantity, "")).toBe("Quantity is required");
    expect(run(quantity, "   ")).toBe("Quantity is required");
    expect(run(quantity, "1.5")).toBe("Quantity must be a whole number");
    expect(run(quantity, "-1")).toBe("Quantity must be a whole number");
    expect(run(quantity, "1e2")).toBe("Quantity must be a whole number");
    expect(run(quantity, "abc")).toBe("Quantity must be a whole number");
    expect(run(quantity, "0")).toBe("Quantity must be at least 1");
    expect(run(quantity, "5")).toBe("Only 4 batteries are waiting to charge");
  });

  it("falls back to the one message", () => {
    const one = count({ min: 1, message: "Quantity is required" });
    for (const t of ["", "x", "0", String(MAX_COUNT + 1)]) expect(run(one, t)).toBe("Quantity is required");
    expect(run(one, String(MAX_COUNT))).toBe(MAX_COUNT);
  });

  it("reads blank as 0 when asked, still checking min", () => {
    const optional = count({ blankIsZero: true, message: "Must be a valid number 0 or greater" });
    expect(run(optional, "")).toBe(0);
    expect(run(optional, "x")).toBe("Must be a valid number 0 or greater");
    expect(run(count({ blankIsZero: true, min: 1, message: "m", tooSmall: "at least 1" }), "")).toBe("at least 1");
  });

  it("caps at MAX_COUNT by default and at max when given", () => {
    expect(run(count({ message: "m" }), String(MAX_COUNT + 1))).toBe("m");
    expect(run(count({ message: "m", max: 1_000_000 }), "1000000")).toBe(1_000_000);
  });
});

describe("wholeNumber", () => {
  it("takes digits only, up to max", () => {
    expect(wholeNumber(" 42 ")).toBe(42);
    expect(wholeNumber("0")).toBe(0);
    for (const bad of ["", "-1", "2.5", "1e3", "0x10", "abc", "١٢"]) expect(wholeNumber(bad)).toBeNull();
    expect(wholeNumber("10001", 10_000)).toBeNull();
    expect(wholeNumber("10000", 10_000)).toBe(10_000);
  });
});

describe("parseInlineCount", () => {
  it.each([
    ["12", { kind: "save", value: 12 }],
    [" 7 ", { kind: "save", value: 7 }],
    ["0", { kind: "close" }],
    ["-1", { kind: "invalid" }],
    ["1.5", { kind: "invalid" }],
    ["abc", { kind: "invalid" }],
    ["", { kind: "invalid" }],
  ])("%j → %j", (raw, want) => {
    expect(parseInlineCount(raw)).toEqual(want);
  });

  it("refuses more than max (a quick log's MAX_COUNT)", () => {
    expect(parseInlineCount("10000", MAX_COUNT)).toEqual({ kind: "save", value: 10_000 });
    expect(parseInlineCount("10001", MAX_COUNT)).toEqual({ kind: "invalid" });
  });
});
