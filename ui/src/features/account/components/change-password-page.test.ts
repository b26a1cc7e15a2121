import { describe, expect, it } from "vitest";
import { backPath } from "@/features/account/components/change-password-page";

describe("backPath", () => {
  it("sends the liaison to /liaison-console and everyone else to /", () => {
    expect(backPath("corporate_liason")).toBe("/liaison-console");
    expect(backPath("driver")).toBe("/");
    expect(backPath("admin")).toBe("/");
  });
});
