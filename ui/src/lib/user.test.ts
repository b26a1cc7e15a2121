// @vitest-environment node
import { describe, expect, it } from "vitest";
import { displayName, initials, isAdminRole, roleLabel, roleLetter } from "@/lib/user";

describe("initials", () => {
  it.each([
    [{ firstName: "ada", lastName: "lovelace", email: "a@x.io" }, "AL"],
    [{ firstName: "Ada", lastName: "", email: "ada@x.io" }, "AD"],
    [{ firstName: "", lastName: "Lovelace", email: "zed@x.io" }, "ZE"],
    [{ firstName: "", lastName: "", email: "" }, "U"],
    [null, "U"],
    [{ firstName: "  ", lastName: "  ", email: "  " }, "U"],
  ])("%j → %s", (user, want) => {
    expect(initials(user)).toBe(want);
  });
});

describe("displayName", () => {
  it.each([
    [{ firstName: "Ada", lastName: "Lovelace", email: "a@x.io" }, "Ada Lovelace"],
    [{ firstName: "Ada", lastName: "", email: "a@x.io" }, "Ada"],
    [{ firstName: "", lastName: "Lovelace", email: "a@x.io" }, "a@x.io"],
    [{ firstName: "", lastName: "", email: "" }, "User"],
    [undefined, "User"],
  ])("%j → %s", (user, want) => {
    expect(displayName(user)).toBe(want);
  });
});

describe("roles", () => {
  it("letters are M, A, L, D", () => {
    expect(["master_admin", "admin", "corporate_liason", "driver"].map(roleLetter)).toEqual(["M", "A", "L", "D"]);
  });
  it("only admin and master_admin are admins", () => {
    expect(["master_admin", "admin", "corporate_liason", "driver", undefined].map(isAdminRole)).toEqual([true, true, false, false, false]);
  });
  it("labels roles for the header", () => {
    expect(roleLabel("corporate_liason")).toBe("Corporate Liaison");
    expect(roleLabel("master_admin")).toBe("Master Admin");
  });
});
