// @vitest-environment node
import { describe, expect, it } from "vitest";
import { emptyVersion, hasText, isDate, versionSchema } from "@/features/terms/utils/version-form";

describe("versionSchema", () => {
  it("accepts a complete version", () => {
    expect(versionSchema.safeParse({ version: "2025.2", effectiveDate: "2025-03-01", title: "Terms", content: "<p>Hi</p>" }).success).toBe(true);
  });
  it("says what is missing, in the server's words", () => {
    const r = versionSchema.safeParse({ version: " ", effectiveDate: "2025-02-30", title: "", content: "<p></p>" });
    expect(r.success).toBe(false);
    const messages = r.error?.issues.map((i) => i.message);
    expect(messages).toEqual(["Version is required", "Effective date must be a date (YYYY-MM-DD)", "Title is required", "Content is required"]);
  });
  it("limits the version to 50 characters", () => {
    expect(versionSchema.safeParse({ version: "v".repeat(51), effectiveDate: "2025-03-01", title: "T", content: "x" }).success).toBe(false);
  });
});

describe("helpers", () => {
  it("isDate takes only real dates", () => {
    expect(isDate("2024-02-29")).toBe(true);
    expect(isDate("2025-02-29")).toBe(false);
    expect(isDate("01/03/2025")).toBe(false);
  });
  it("hasText looks through tags", () => {
    expect(hasText("<p>&nbsp;</p>")).toBe(false);
    expect(hasText("<h1>A</h1>")).toBe(true);
  });
  it("emptyVersion is effective today in the operation's zone", () => {
    const d = new Date("2025-01-06T03:30:00Z"); // Jan 5 in New York, Jan 6 in UTC
    expect(emptyVersion(d, "America/New_York")).toEqual({ version: "", effectiveDate: "2025-01-05", title: "", content: "" });
    expect(emptyVersion(d, "UTC").effectiveDate).toBe("2025-01-06");
  });
});
