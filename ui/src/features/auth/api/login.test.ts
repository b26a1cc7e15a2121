import { describe, expect, it } from "vitest";
import { emailedCodeId, loginSchema } from "@/features/auth/api/login";
import { ApiError } from "@/lib/api-client";

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

describe("emailedCodeId", () => {
  it("reads the otpId of a sign_in_code_required answer", () => {
    const asked = new ApiError(403, JSON.stringify({ status: 403, code: "sign_in_code_required", message: "We emailed you a sign-in code.", data: { otpId: "otp123" } }));
    expect(emailedCodeId(asked)).toBe("otp123");
  });
  it.each([
    ["a wrong password", new ApiError(400, JSON.stringify({ status: 400, code: "invalid_credentials", message: "Invalid email or password", data: {} }))],
    ["a slowed source", new ApiError(429, JSON.stringify({ status: 429, code: "too_many_requests", message: "Too many", data: {} }))],
    ["a network error", new Error("offline")],
  ])("is empty for %s", (_, error) => {
    expect(emailedCodeId(error)).toBe("");
  });
});
