// The registration journey of spec part 1 §2/§4: register → read and tick the terms → sign
// → accept → pending panel; an admin approves on the Users page; the driver signs in and
// sees the shell; sign out lands on /auth. Every step's result is checked through the SDK.
import path from "node:path";
import { ADMIN, SCREENSHOTS } from "../env";
import { drawSignature } from "../draw";
import { expect, findUser, test, toast } from "../fixtures";

test("register, sign the terms, get approved, sign in, sign out", async ({ page, pb, shot, unique }, testInfo) => {
  test.slow(); // 20–34 s on a quiet machine: a third or more of the 60 s default, which a loaded 2-core CI machine passes
  const lastName = `Driver-${testInfo.project.name}`;
  const driver = { email: unique("driver"), password: "driver-secret-1", firstName: "Dana", lastName };

  await test.step("register and open the terms", async () => {
    await page.goto("/auth");
    await page.getByRole("tab", { name: "Register" }).click();
    await page.getByLabel("First Name").fill(driver.firstName);
    await page.getByLabel("Last Name").fill(driver.lastName);
    await page.getByLabel("Email").fill(driver.email);
    await page.getByLabel("Password").fill(driver.password);
    await shot("auth-register");
    await page.getByRole("button", { name: "Continue to Terms" }).click();
  });

  const dialog = page.getByRole("dialog");
  const accept = dialog.getByRole("button", { name: "Accept Terms & Sign" });
  await test.step("read, tick and sign the terms", async () => {
    await expect(dialog.getByRole("heading", { name: /Contractor Agreement/i }).first()).toBeVisible();
    await expect(dialog.getByText(/^Version .+ · Effective /)).toBeVisible();
    const read = dialog.getByRole("checkbox", { name: "I have read and understood the Terms and Conditions above" });
    const agree = dialog.getByRole("checkbox", { name: "I agree to be bound by these Terms and Conditions" });
    await expect(agree).toBeDisabled();
    await expect(accept).toBeDisabled();
    await shot("terms-modal");
    await read.check();
    await expect(agree).toBeEnabled();
    await agree.check();
    await expect(accept).toBeDisabled(); // still no signature
    const pad = dialog.getByRole("img", { name: "Digital Signature" });
    await drawSignature(page, pad);
    await expect(accept).toBeEnabled();
    await dialog.getByRole("button", { name: "Clear Signature" }).click();
    await expect(accept).toBeDisabled();
    await drawSignature(page, pad);
    await expect(accept).toBeEnabled();
    await shot("terms-modal-signed");
    await accept.click();
  });

  await test.step("the account waits for approval", async () => {
    await expect(toast(page).getByText("Registration successful! Your account is pending admin approval.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Account Pending Approval" })).toBeVisible();
    await shot("pending-approval");
    await expect
      .poll(async () => {
        const u = await findUser(pb, driver.email);
        return u && { role: u.role, isApproved: u.isApproved, firstName: u.firstName };
      })
      .toEqual({ role: "driver", isApproved: "pending", firstName: "Dana" });
    const user = await findUser(pb, driver.email);
    const agreements = await pb.collection("agreements").getFullList({ filter: pb.filter("user = {:id}", { id: user!.id }) });
    expect(agreements).toHaveLength(1);
    expect(agreements[0]!.signature).toBeTruthy();
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/auth$/);
  });

  await test.step("an admin approves the driver on the Users page", async () => {
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(toast(page).getByText(`Logged in as ${ADMIN.email}`)).toBeVisible();
    await expect(page.getByText("Auto-updating every 60s")).toBeVisible();
    await shot("admin-home");
    if (test.info().project.name === "phone") {
      await page.getByRole("combobox", { name: "Admin navigation" }).click();
      // viewport-only: a full-page shot of a page taller than the phone resizes the window,
      // and Radix Select closes on resize
      await expect(page.getByRole("option", { name: "Users" })).toBeVisible();
      await page.screenshot({ path: path.join(SCREENSHOTS, "phone-admin-tab-dropdown.png") });
      await page.getByRole("option", { name: "Users" }).click();
    } else {
      await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Users" }).click();
    }
    await expect(page).toHaveURL(/\/admin-users$/);
    const pending = page.getByRole("region", { name: "Pending Approval" });
    await expect(pending.getByText(driver.email)).toBeVisible();
    await shot("users-page");
    await pending.getByRole("button", { name: `Approve Dana ${lastName}` }).click();
    await expect(toast(page).getByText("User approved")).toBeVisible();
    await expect(pending.getByText(driver.email)).toBeHidden();
    await expect.poll(async () => (await findUser(pb, driver.email))?.isApproved).toBe("approved");
    await shot("users-page-approved");
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/auth$/);
  });

  await test.step("the driver signs in and sees the shell", async () => {
    await page.getByLabel("Email").fill(driver.email);
    await page.getByLabel("Password").fill(driver.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "Driver Home" })).toBeVisible();
    await expect(page.getByText("Auto-updating every 60s")).toBeVisible();
    await expect(page.getByText(`Dana ${lastName}`, { exact: true }).first()).toBeAttached();
    await expect(page.getByRole("navigation", { name: "Admin" })).toHaveCount(0);
    await shot("driver-home");
  });

  await test.step("sign out lands on /auth", async () => {
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole("tab", { name: "Sign In" })).toBeVisible();
    const me = await page.request.get("/api/auth/user");
    expect(me.status()).toBe(401);
  });
});
