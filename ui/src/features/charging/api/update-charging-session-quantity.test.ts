// @vitest-environment node
import { describe, expect, it } from "vitest";
import { editQuantitySchema } from "@/features/charging/api/update-charging-session-quantity";

const first = (v: object, current = 5) => {
  const r = editQuantitySchema(current).safeParse({ quantity: "3", destination: "ready", ...v });
  return r.success ? r.data : r.error.issues[0]?.message;
};

describe("editQuantitySchema (spec part 1 §2)", () => {
  it("gives the new quantity as a number", () => {
    expect(first({})).toEqual({ quantity: 3, destination: "ready" });
    expect(first({ quantity: "7", destination: "" })).toEqual({ quantity: 7, destination: "" });
    expect(first({ quantity: "0", destination: "waiting" })).toEqual({ quantity: 0, destination: "waiting" });
  });
  it("wants a whole number 0 or more", () => {
    for (const q of ["", "-1", "2.5", "x"]) expect(first({ quantity: q })).toBe("Please enter a valid number 0 or greater");
  });
  it("asks where removed batteries go", () => {
    expect(first({ destination: "" })).toBe("Please choose where these batteries are going");
    expect(first({ quantity: "5", destination: "" })).toEqual({ quantity: 5, destination: "" });
  });
});
