import { describe, expect, it } from "vitest";
import { SIGNATURE_PAD, canAcceptTerms, sanitizeTermsHtml, signatureWidth } from "@/features/auth/utils/terms-acceptance";

describe("canAcceptTerms", () => {
  const all = { read: true, agreed: true, hasSignature: true, submitting: false };
  it("is enabled with both ticks, a signature and no request running", () => {
    expect(canAcceptTerms(all)).toBe(true);
  });
  it.each([
    [{ ...all, read: false }],
    [{ ...all, agreed: false }],
    [{ ...all, hasSignature: false }],
    [{ ...all, submitting: true }],
  ])("is disabled otherwise: %j", (state) => {
    expect(canAcceptTerms(state)).toBe(false);
  });
});

describe("signature pad", () => {
  it("is 450 wide, or the window width minus 100 when smaller", () => {
    expect(signatureWidth(1280)).toBe(450);
    expect(signatureWidth(550)).toBe(450);
    expect(signatureWidth(390)).toBe(290);
  });
  it("uses the spec's pen", () => {
    expect(SIGNATURE_PAD).toEqual({ minWidth: 0.5, maxWidth: 2.5, throttle: 16, minDistance: 5, penColor: "black" });
  });
});

describe("sanitizeTermsHtml", () => {
  it("keeps formatting and safe links", () => {
    const html = sanitizeTermsHtml('<h2>Pay</h2><p><strong>Thursday</strong> <a href="https://x.io">site</a> <a href="mailto:a@x.io">mail</a></p>');
    expect(html).toContain("<h2>Pay</h2>");
    expect(html).toContain("<strong>Thursday</strong>");
    expect(html).toContain('href="https://x.io"');
    expect(html).toContain('href="mailto:a@x.io"');
  });
  it("strips scripts, handlers and javascript: URLs", () => {
    const html = sanitizeTermsHtml('<p onclick="steal()">x</p><script>steal()</script><a href="javascript:steal()">y</a><img src=x onerror="steal()">');
    expect(html).not.toMatch(/script|onclick|onerror|javascript:/i);
    expect(html).toContain("<p>x</p>");
  });
});
