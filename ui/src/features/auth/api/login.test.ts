import { describe, expect, it } from "vitest";
import { loginSchema } from "@/features/auth/api/login";

describe("loginSchema", () => {
  it("accepts an email and a password", () => {
    expect(loginSchema.safeParse({ email: "a@x.io", password: "secret" }).success).toBe(true);
  });
  it.each([
    [{ email: "", password: "secret" }, "email"],
    [{ email: "   ", password: "secret" }, "email"],
    [{ email: "a@x.io", password: "" }, "password"],
  ])("requires both fields: %j", (values, field) => {
    const result = loginSchema.safeParse(values);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path[0])).toEqual([field]);
  });
});
