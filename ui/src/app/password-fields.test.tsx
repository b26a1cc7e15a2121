// Sign-in, register, change password and the admin's edit dialog, side by side: password
// managers and paste work in every password field (STYLE: app/ may import every feature).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createEvent, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChangePasswordPage } from "@/features/account/components/change-password-page";
import { LoginForm } from "@/features/auth/components/login-form";
import { RegisterForm } from "@/features/auth/components/register-form";
import { EditUserDialog } from "@/features/users/components/edit-user-dialog";

vi.mock("@/lib/auth", async (original) => ({
  ...(await original<typeof import("@/lib/auth")>()),
  useUser: () => ({ data: { id: "u1", email: "ada@example.com", role: "driver" } }),
}));

function renderIn(ui: React.ReactNode) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

// pasteAllowed reports that nothing cancels a paste into the field (a password manager or the
// clipboard may fill it).
function pasteAllowed(field: HTMLElement): boolean {
  const paste = createEvent.paste(field, { clipboardData: { getData: () => "s3cret-from-manager" } });
  fireEvent(field, paste);
  return !paste.defaultPrevented;
}

afterEach(() => {
  document.body.innerHTML = "";
});

describe("password managers and paste", () => {
  it("sign in: the email is the username, the password the current one", () => {
    renderIn(<LoginForm />);
    expect(screen.getByLabelText("Email").getAttribute("autocomplete")).toBe("username");
    const password = screen.getByLabelText("Password");
    expect(password.getAttribute("autocomplete")).toBe("current-password");
    expect(pasteAllowed(password)).toBe(true);
  });
  it("register: the email is the username of a new password", () => {
    renderIn(<RegisterForm />);
    expect(screen.getByLabelText("Email").getAttribute("autocomplete")).toBe("username");
    const password = screen.getByLabelText("Password");
    expect(password.getAttribute("autocomplete")).toBe("new-password");
    expect(pasteAllowed(password)).toBe(true);
  });
  it("change password: the account's username, the current password and the new one twice", () => {
    renderIn(<ChangePasswordPage />);
    const username = document.querySelector<HTMLInputElement>('input[autocomplete="username"]');
    expect(username?.value).toBe("ada@example.com");
    expect(screen.getByLabelText("Current Password").getAttribute("autocomplete")).toBe("current-password");
    expect(screen.getByLabelText("New Password").getAttribute("autocomplete")).toBe("new-password");
    expect(screen.getByLabelText("Confirm New Password").getAttribute("autocomplete")).toBe("new-password");
    for (const label of ["Current Password", "New Password", "Confirm New Password"]) expect(pasteAllowed(screen.getByLabelText(label))).toBe(true);
  });
  it("an admin editing someone else is not offered their own sign-in", () => {
    const user = { id: "u2", email: "dan@example.com", firstName: "Dan", lastName: "D", role: "driver", isApproved: "approved", payReductionPercentage: 20 };
    renderIn(<EditUserDialog user={user as never} callerRole="admin" onClose={() => {}} />);
    expect(screen.getByLabelText("Email").getAttribute("autocomplete")).toBe("off");
    expect(screen.getByLabelText("New Password").getAttribute("autocomplete")).toBe("new-password");
  });
});
