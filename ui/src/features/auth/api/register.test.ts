import { zodResolver } from "@hookform/resolvers/zod";
import { describe, expect, it } from "vitest";
import { type RegisterInput, registerSchema, registrationError } from "@/features/auth/api/register";

const ok: RegisterInput = { firstName: "Ada", lastName: "Lovelace", email: "ada@x.io", password: "secret1" };

// what the Register form's resolver gives react-hook-form for values
async function resolve(values: RegisterInput) {
  return zodResolver(registerSchema)(values, undefined, { fields: {}, shouldUseNativeValidation: false });
}

describe("the Register form's resolver", () => {
  it("passes complete values, trimmed", async () => {
    const r = await resolve({ ...ok, firstName: " Ada ", email: " ada@x.io " });
    expect(r.errors).toEqual({});
    expect(r.values).toEqual({ ...ok, firstName: "Ada", email: "ada@x.io" });
    expect(registrationError(r.errors)).toBeNull();
  });
  it.each([
    [{ ...ok, firstName: "" }],
    [{ ...ok, lastName: "  " }],
    [{ ...ok, firstName: "", lastName: "", email: "", password: "" }],
  ])("names come first: %j", async (values) => {
    expect(registrationError((await resolve(values)).errors)).toBe("First name and last name are required");
  });
  it.each([[{ ...ok, email: "" }], [{ ...ok, password: "" }], [{ ...ok, email: " ", password: "" }]])(
    "then email and password: %j",
    async (values) => {
      expect(registrationError((await resolve(values)).errors)).toBe("Email and password are required");
    },
  );
});
