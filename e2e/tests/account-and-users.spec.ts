// Change password (spec part 2 §2, §5, §8), the Users page's Reject and failure toast, the
// liaison's way back. (axe on these screens: the table in screens.spec.ts.)
import { ADMIN } from "../env";
import { expect, findUser, seedUser, signIn, test, toast } from "../fixtures";

test("change password validates, refuses a wrong current password and changes it", async ({ page, pb, shot, unique }) => {
  const email = unique("pw");
  await seedUser(pb, { email, password: "old-secret-1", firstName: "Pat", lastName: "Word" });
  await signIn(page, email, "old-secret-1");
  await page.goto("/change-password");
  await expect(page.getByRole("heading", { name: "Change Password" })).toBeVisible();

  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText("Current password is required")).toBeVisible();
  await expect(page.getByText("New password must be at least 6 characters")).toBeVisible();
  await expect(page.getByText("Please confirm your new password")).toBeVisible();
  await shot("change-password-invalid");

  await page.getByLabel("Current Password", { exact: true }).fill("wrong-secret");
  await page.getByLabel("New Password", { exact: true }).fill("new-secret-1");
  await page.getByLabel("Confirm New Password", { exact: true }).fill("new-secret-2");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();

  const newField = page.getByLabel("New Password", { exact: true });
  await expect(newField).toHaveAttribute("type", "password");
  await page.getByRole("button", { name: "Show new password" }).click();
  await expect(newField).toHaveAttribute("type", "text");
  await page.getByRole("button", { name: "Hide new password" }).click();
  await expect(newField).toHaveAttribute("type", "password");

  await page.getByLabel("Confirm New Password", { exact: true }).fill("new-secret-1");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(toast(page).getByText("Password Change Failed")).toBeVisible();
  await shot("change-password-failed");

  await page.getByLabel("Current Password", { exact: true }).fill("old-secret-1");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(toast(page).getByText("Your password has been successfully updated.")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  const fresh = await page.context().browser()!.newContext({ baseURL: test.info().project.use.baseURL });
  await expect.poll(async () => (await fresh.request.post("/api/login", { data: { email, password: "new-secret-1" } })).status()).toBe(200);
  await fresh.close();
});

test("the liaison's password page goes back to /liaison-console", async ({ page, pb, unique }) => {
  const email = unique("liaison");
  await seedUser(pb, { email, password: "liaison-secret-1", firstName: "Lia", lastName: "Son", role: "corporate_liason" });
  await signIn(page, email, "liaison-secret-1");
  await page.goto("/change-password");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/liaison-console$/);
  await expect(page.getByText("View-Only Access")).toBeVisible();
});

test("an admin rejects a pending user; a failed update says so", async ({ page, pb, shot, unique }, testInfo) => {
  const tag = testInfo.project.name;
  const email = unique("reject");
  await seedUser(pb, { email, password: "pending-secret-1", firstName: "Rex", lastName: `Jected-${tag}`, isApproved: "pending" });
  const other = unique("fail");
  await seedUser(pb, { email: other, password: "pending-secret-1", firstName: "Fay", lastName: `Ling-${tag}`, isApproved: "pending" });
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/admin-users");
  const pending = page.getByRole("region", { name: "Pending Approval" });

  await pending.getByRole("button", { name: `Reject Rex Jected-${tag}` }).click();
  await expect(toast(page).getByText("User rejected")).toBeVisible();
  await expect.poll(async () => (await findUser(pb, email))?.isApproved).toBe("rejected");
  await expect(pending.getByText(email)).toBeHidden();

  await page.route("**/api/admin/users/*/approval", (route) =>
    route.fulfill({ status: 500, contentType: "application/json", body: '{"status":500,"message":"Database is busy","data":{}}' }),
  );
  await pending.getByRole("button", { name: `Approve Fay Ling-${tag}` }).click();
  await expect(toast(page).getByText("Failed to update user approval")).toBeVisible();
  await shot("users-approval-failed");
  expect((await findUser(pb, other))?.isApproved).toBe("pending");
});
