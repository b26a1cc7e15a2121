// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { Agreement } from "@/features/terms/api/terms";
import { filterAgreements, footer, signatureLabel } from "@/features/terms/utils/agreements";

const a = (firstName: string, lastName: string, email: string): Agreement => ({
  id: email,
  userId: "u",
  firstName,
  lastName,
  email,
  signedAt: "2025-03-01 10:00:00.000Z",
  termsVersion: "2025.1",
  pdfStatus: "available",
  pdfUrl: "/api/agreements/x/pdf",
  signatureMethod: "drawn",
});

describe("filterAgreements", () => {
  const list = [a("Zoë", "Kowalska", "zoe@example.com"), a("Nguyễn", "Văn An", "an@fleet.vn")];
  it("matches the full name or the email, any case", () => {
    expect(filterAgreements(list, "zoë k").map((x) => x.email)).toEqual(["zoe@example.com"]);
    expect(filterAgreements(list, "FLEET").map((x) => x.email)).toEqual(["an@fleet.vn"]);
    expect(filterAgreements(list, "  ")).toHaveLength(2);
    expect(filterAgreements(list, "nobody")).toEqual([]);
  });
});

describe("footer", () => {
  it("gives the total, and the search text when there is one", () => {
    expect(footer(2, 2, "")).toBe("2 signed agreements");
    expect(footer(1, 1, "")).toBe("1 signed agreement");
    expect(footer(0, 5, "kim")).toBe('Showing 0 of 5 signed agreements matching "kim"');
  });
});

describe("signatureLabel", () => {
  it("says how the agreement was signed", () => {
    expect(signatureLabel({ signatureMethod: "drawn" })).toBe("Drawn");
    expect(signatureLabel({ signatureMethod: "typed" })).toBe("Typed");
  });
});
