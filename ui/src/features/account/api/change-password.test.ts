// @vitest-environment node
import { describe, expect, it } from "vitest";
import { changePasswordSchema } from "@/features/account/api/change-password";

function messages(values: { currentPassword: string; newPassword: string; confirmPassword: string }) {
  const result = changePasswordSchema.safeParse(values);
  return result.success ? [] : result.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
}

describe("changePasswordSchema", () => {
  it("accepts matching passwords of at least 6 characters", () => {
    expect(messages({ currentPassword: "old", newPassword: "secret", confirmPassword: "secret" })).toEqual([]);
  });
  it("requires the current password", () => {
    expect(messages({ currentPassword: "", newPassword: "secret", confirmPassword: "secret" })).toEqual([
      "currentPassword: Current password is required",
    ]);
  });
  it("needs a new password of at least 6 characters", () => {
    expect(messages({ currentPassword: "old", newPassword: "12345", confirmPassword: "12345" })).toEqual([
      "newPassword: New password must be at least 6 characters",
    ]);
  });
  it("requires the confirmation", () => {
    expect(messages({ currentPassword: "old", newPassword: "secret", confirmPassword: "" })).toEqual([
      "confirmPassword: Please confirm your new password",
    ]);
  });
  it("rejects a mismatch", () => {
    expect(messages({ currentPassword: "old", newPassword: "secret", confirmPassword: "secreT" })).toEqual([
      "confirmPassword: Passwords don't match",
    ]);
  });
});
