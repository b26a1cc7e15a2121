// @vitest-environment node
import { describe, expect, it } from "vitest";
import { typedFontSize } from "@/features/auth/utils/typed-signature";

describe("typed signature", () => {
  it("keeps 56 px when the name fits", () => {
    expect(typedFontSize((px) => px * 3, 450)).toBe(56);
  });
  it("shrinks a long name until it fits the canvas less 24 px", () => {
    // 20 px of width per px of font: fits 290 - 24 = 266 at 13.3 px, so 12 (the floor)
    expect(typedFontSize((px) => px * 20, 290)).toBe(12);
    // 8 px per px: 426 / 8 = 53.25, so 52
    expect(typedFontSize((px) => px * 8, 450)).toBe(52);
  });
});
