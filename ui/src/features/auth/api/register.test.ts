import { describe, expect, it } from "vitest";
import { registrationError } from "@/features/auth/api/register";

const ok = { firstName: "Ada", lastName: "Lovelace", email: "ada@x.io", password: "secret1" };

describe("registrationError", () => {
  it("passes complete values", () => {
    expect(registrationError(ok)).toBeNull();
  });
  it.each([
    [{ ...ok, firstName: "" }],
    [{ ...ok, lastName: "  " }],
    [{ ...ok, firstName: "", lastName: "", email: "", password: "" }],
  ])("names come first: %j", (values) => {
    expect(registrationError(values)).toBe("First name and last name are required");
  });
  it.each([[{ ...ok, email: "" }], [{ ...ok, password: "" }], [{ ...ok, email: " ", password: "" }]])(
    "then email and password: %j",
    (values) => {
      expect(registrationError(values)).toBe("Email and password are required");
    },
  );
});
