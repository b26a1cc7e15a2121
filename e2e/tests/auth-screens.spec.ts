// The sign-in screen, the terms modal's states and the fallback screens (spec part 1 §2,
// §5, §8; part 2 §2).
import { ADMIN } from "../env";
import { expect, seedUser, signIn, test, toast } from "../fixtures";

test.describe("sign in", () => {
  test("validates, refuses wrong credentials and welcomes back", async ({ page, shot }) => {
    await page.goto("/auth");
    await shot("auth-sign-in");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByText("Email is required")).toBeVisible();
    await expect(page.getByText("Password is required")).toBeVisible();
    await shot("auth-sign-in-invalid");

    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(toast(page).getByText("Login failed")).toBeVisible();
    await expect(toast(page).getByText("Invalid email or password")).toBeVisible();
    await shot("auth-login-failed");
    await expect(page).toHaveURL(/\/auth$/);

    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(toast(page).getByText("Welcome back!")).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "Home" })).toBeVisible();
  });

  test("/ shows the sign-in screen to guests; /auth sends signed-in users to /", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("tab", { name: "Sign In" })).toBeVisible();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto("/auth");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "Home" })).toBeVisible();
  });

  test("a guest on a signed-in page is told and sent to /auth", async ({ page, shot }) => {
    await page.goto("/admin-users");
    await expect(toast(page).getByText("Unauthorized")).toBeVisible();
    await expect(toast(page).getByText("You are logged out. Logging in again...")).toBeVisible();
    await shot("unauthorized");
    await expect(page).toHaveURL(/\/auth$/);
  });
});

test.describe("register", () => {
  test("asks for the required fields before the terms", async ({ page, shot }) => {
    await page.goto("/auth");
    await page.getByRole("tab", { name: "Register" }).click();
    await page.getByRole("button", { name: "Continue to Terms" }).click();
    await expect(toast(page).getByText("Required Fields")).toBeVisible();
    await expect(toast(page).getByText("First name and last name are required")).toBeVisible();
    await shot("register-required-fields");
    await page.getByLabel("First Name").fill("Rita");
    await page.getByLabel("Last Name").fill("Rider");
    await page.getByRole("button", { name: "Continue to Terms" }).click();
    await expect(toast(page).getByText("Email and password are required")).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });

  test("the terms modal loads, fails and cancels as specified", async ({ page, shot, unique }) => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    let fail = false;
    await page.route("**/api/terms-content/active", async (route) => {
      if (fail) return route.fulfill({ status: 500, body: '{"status":500,"message":"boom","data":{}}' });
      await gate;
      return route.continue();
    });
    await page.goto("/auth");
    await page.getByRole("tab", { name: "Register" }).click();
    await page.getByLabel("First Name").fill("Rita");
    await page.getByLabel("Last Name").fill("Rider");
    await page.getByLabel("Email").fill(unique("rita"));
    await page.getByLabel("Password").fill("secret-123");
    await page.getByRole("button", { name: "Continue to Terms" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText("Loading terms and conditions...")).toBeVisible();
    await shot("terms-loading");
    release();
    await expect(dialog.getByRole("checkbox", { name: /I have read/ })).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);

    // a fresh load that fails (the cached terms are dropped first)
    fail = true;
    await page.evaluate(() => window.location.reload());
    await page.getByRole("tab", { name: "Register" }).click();
    await page.getByLabel("First Name").fill("Rita");
    await page.getByLabel("Last Name").fill("Rider");
    await page.getByLabel("Email").fill(unique("rita"));
    await page.getByLabel("Password").fill("secret-123");
    await page.getByRole("button", { name: "Continue to Terms" }).click();
    await expect(dialog.getByText("Failed to load terms and conditions. Please try again.")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Accept Terms & Sign" })).toBeDisabled();
    await shot("terms-failed");
  });
});

test.describe("fallback screens", () => {
  test("unknown paths show 404 Page Not Found", async ({ page, shot }) => {
    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
    await expect(page.getByText("Did you forget to add the page to the router?")).toBeVisible();
    await shot("not-found");
  });

  test("a slow auth check shows the spinner with its hint", async ({ page, shot }) => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    await page.route("**/api/auth/user", async (route) => {
      await gate;
      await route.continue();
    });
    await page.goto("/");
    await expect(page.getByText("If this takes too long, please refresh the page")).toBeVisible();
    await shot("auth-loading");
    release();
    await expect(page.getByRole("tab", { name: "Sign In" })).toBeVisible();
  });

  test("a failing auth check shows Connection Issue", async ({ page, shot }) => {
    await page.route("**/api/auth/user", (route) => route.abort("connectionrefused"));
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Connection Issue" })).toBeVisible({ timeout: 20_000 });
    await expect(
      page.getByText(
        "Unable to connect to the authentication service. Please check your internet connection and try refreshing the page.",
      ),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Refresh Page" })).toBeVisible();
    await shot("connection-issue");
  });

  test("a screen that fails to load shows Application Error with details", async ({ page, shot }) => {
    await page.route(/\/assets\/not-found-[^/]+\.js$/, (route) => route.abort("failed"));
    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "Application Error" })).toBeVisible();
    await expect(page.getByText("Something went wrong. This might be a temporary issue with your device or connection.")).toBeVisible();
    await page.getByText("Technical Details").click();
    await expect(page.getByText(/Failed to fetch dynamically imported module|Importing a module script failed/).first()).toBeVisible();
    await shot("application-error");
    await page.unrouteAll();
    await page.getByRole("button", { name: "Debug Info" }).click();
    await expect(page).toHaveURL(/\/mobile-debug$/);
  });

  test("the debug page tests the server and the session", async ({ page, shot }) => {
    await page.goto("/mobile-debug");
    await expect(page.getByRole("heading", { name: "Debug Info" })).toBeVisible();
    await page.getByRole("button", { name: "Test Server" }).click();
    await expect(page.getByText(/GET \/api\/health → 200/)).toBeVisible();
    await page.getByRole("button", { name: "Test Auth" }).click();
    await expect(page.getByText(/GET \/api\/auth\/user → 401/)).toBeVisible();
    await page.getByRole("button", { name: "Clear Errors" }).click();
    await expect(page.getByRole("heading", { name: "Captured Errors (0)" })).toBeVisible();
    await shot("mobile-debug");
  });

  test("a driver opening an admin page is refused", async ({ page, pb, shot, unique }) => {
    const email = unique("denied");
    await seedUser(pb, { email, password: "driver-secret-1", firstName: "Dee", lastName: "Nied" });
    await signIn(page, email, "driver-secret-1");
    await page.goto("/admin-users");
    await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
    await shot("access-denied");
  });
});
