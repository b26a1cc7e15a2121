// @vitest-environment node
import { describe, expect, it } from "vitest";
import { EMAIL_AND_PASSWORD, createUserSchema, editUserSchema } from "@/features/users/api/user-actions";

const first = (r: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) =>
  r.success ? null : { message: r.error!.issues[0]!.message, path: r.error!.issues[0]!.path.join(".") };

describe("createUserSchema (spec part 2 §5)", () => {
  const ok = { firstName: " Ada ", lastName: "L", email: "ada@x.io", password: "secret1", role: "driver" as const, bypassTerms: false };
  it("passes and trims", () => {
    expect(createUserSchema.parse(ok).firstName).toBe("Ada");
  });
  it("asks for email and password with one message, then a valid email, then 6 characters", () => {
    expect(first(createUserSchema.safeParse({ ...ok, email: "" }))).toEqual({ message: EMAIL_AND_PASSWORD, path: "root" });
    expect(first(createUserSchema.safeParse({ ...ok, email: "nope" }))).toEqual({ message: "Please enter a valid email address", path: "email" });
    expect(first(createUserSchema.safeParse({ ...ok, password: "12345" }))).toEqual({ message: "Password must be at least 6 characters", path: "password" });
    expect(first(createUserSchema.safeParse({ ...ok, lastName: "x".repeat(101) }))?.message).toBe("First name and last name must be at most 100 characters");
  });
});

describe("editUserSchema", () => {
  const ok = { firstName: "Ada", lastName: "L", email: " ada@x.io ", role: "admin" as const, password: "", payReductionPercentage: " 20 " };
  it("keeps a blank password and trims", () => {
    expect(editUserSchema.parse(ok)).toMatchObject({ email: "ada@x.io", password: "", payReductionPercentage: "20" });
  });
  it.each([
    [{ email: "" }, "Email is required"],
    [{ email: "x@" }, "Please enter a valid email address"],
    [{ password: "123" }, "Password must be at least 6 characters"],
    [{ payReductionPercentage: "101" }, "Please enter a number between 0 and 100"],
    [{ payReductionPercentage: "2.5" }, "Please enter a number between 0 and 100"],
  ])("%j → %s", (change, message) => {
    expect(first(editUserSchema.safeParse({ ...ok, ...change }))?.message).toBe(message);
  });
});
