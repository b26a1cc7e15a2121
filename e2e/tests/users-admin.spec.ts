// The Users page's actions (spec part 2 §2, §6, §8): Create User, Edit sending only what
// changed, Suspend, Force re-sign, Delete, search and filters, and the master-only refusals.
import { ADMIN } from "../env";
import { expect, findUser, seedUser, signIn, test, toast } from "../fixtures";

test("an admin creates, edits, suspends, forces a re-sign and deletes a user", async ({ page, pb, shot, unique }, testInfo) => {
  test.slow(); // 20–34 s on a quiet machine: a third or more of the 60 s default, which a loaded 2-core CI machine passes
  const tag = testInfo.project.name;
  const email = unique("created");
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/admin-users");
  await expect(page.getByRole("heading", { name: "All Users" })).toBeVisible();

  await test.step("create: email and password are required, then the account is made approved", async () => {
    await page.getByRole("button", { name: "Create User" }).click();
    const dialog = page.getByRole("dialog", { name: "Create User" });
    await dialog.getByRole("button", { name: "Create User" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Email and password are required");
    // an admin is not offered the Master Admin role
    await dialog.getByRole("combobox", { name: "Role" }).click();
    await expect(page.getByRole("option", { name: "Master Admin" })).toHaveCount(0);
    await page.getByRole("option", { name: "Corporate Liaison" }).click();
    await dialog.getByLabel("First Name").fill("Cree");
    await dialog.getByLabel("Last Name").fill(`Ated-${tag}`);
    await dialog.getByLabel("Email").fill(email);
    await dialog.getByLabel("Password").fill("created-secret-1");
    await dialog.getByRole("checkbox", { name: "Bypass terms" }).check();
    await shot("users-create");
    await dialog.getByRole("button", { name: "Create User" }).click();
    await expect(toast(page).getByText("User created")).toBeVisible();
    await expect(dialog).toBeHidden();
    const rec = await findUser(pb, email);
    expect(rec?.role).toBe("corporate_liason");
    expect(rec?.isApproved).toBe("approved");
  });

  const search = page.getByRole("searchbox", { name: "Search users" });
  const actions = page.getByRole("button", { name: `Actions for Cree Ated-${tag}` });
  await test.step("search and filter find the new user", async () => {
    await search.fill(email);
    await expect(actions).toBeVisible();
    await page.getByRole("combobox", { name: "Filter by role" }).click();
    await page.getByRole("option", { name: "Driver" }).click();
    await expect(page.getByText("No users match these filters")).toBeVisible();
    await page.getByRole("combobox", { name: "Filter by role" }).click();
    await page.getByRole("option", { name: "Corporate Liaison" }).click();
    await expect(actions).toBeVisible();
  });

  await test.step("edit sends only the changed fields; pay reduction is clamped to 100", async () => {
    await actions.click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit User" });
    await dialog.getByLabel("Last Name").fill(`Edited-${tag}`);
    await dialog.getByLabel("Pay Reduction (%)").fill("150");
    await expect(dialog.getByLabel("Pay Reduction (%)")).toHaveValue("100");
    const sent = page.waitForRequest((r) => r.method() === "PUT" && r.url().includes("/api/admin/users/"));
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    expect((await sent).postDataJSON()).toEqual({ lastName: `Edited-${tag}`, payReductionPercentage: 100 });
    await expect(toast(page).getByText("User updated")).toBeVisible();
    const rec = await findUser(pb, email);
    expect([rec?.lastName, rec?.payReductionPercentage]).toEqual([`Edited-${tag}`, 100]);
    // the blank password kept the old one
    const fresh = await page.context().browser()!.newContext({ baseURL: testInfo.project.use.baseURL });
    expect((await fresh.request.post("/api/login", { data: { email, password: "created-secret-1" } })).status()).toBe(200);
    await fresh.close();
  });

  const edited = page.getByRole("button", { name: `Actions for Cree Edited-${tag}` });
  await test.step("force re-sign shows the server's message", async () => {
    await edited.click();
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("menuitem", { name: "Force re-sign" }).click();
    await expect(toast(page).getByText("The user must re-sign the terms and conditions at their next login")).toBeVisible();
    expect((await findUser(pb, email))?.mustResignTerms).toBe(true);
  });

  await test.step("suspend asks first; then Suspend is disabled", async () => {
    await edited.click();
    page.once("dialog", (d) => void d.dismiss());
    await page.getByRole("menuitem", { name: "Suspend" }).click();
    expect((await findUser(pb, email))?.isApproved).toBe("approved");
    await edited.click();
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("menuitem", { name: "Suspend" }).click();
    await expect(toast(page).getByText("User suspended")).toBeVisible();
    await expect.poll(async () => (await findUser(pb, email))?.isApproved).toBe("suspended");
    await edited.click();
    await expect(page.getByRole("menuitem", { name: "Suspend" })).toHaveAttribute("aria-disabled", "true");
    await shot("users-actions");
    await page.keyboard.press("Escape");
  });

  await test.step("delete asks in a dialog, then the account is gone", async () => {
    await edited.click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete User" });
    await expect(confirm).toContainText(email);
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(toast(page).getByText("User deleted")).toBeVisible();
    await expect.poll(async () => await findUser(pb, email)).toBeNull();
    await expect(page.getByText("No users match these filters")).toBeVisible();
  });
});

test("only a master admin may change a master admin: the admin sees 'Access Denied' and nothing changes", async ({ page, pb, unique }, testInfo) => {
  const tag = testInfo.project.name;
  const email = unique("master");
  const master = await seedUser(pb, { email, password: "master-secret-1", firstName: "Max", lastName: `Master-${tag}`, role: "master_admin" });
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/admin-users");
  await page.getByRole("searchbox", { name: "Search users" }).fill(email);
  const actions = page.getByRole("button", { name: `Actions for Max Master-${tag}` });

  for (const [item, words] of [
    ["Edit", "edit"],
    ["Suspend", "suspend"],
    ["Force re-sign", "force re-sign"],
    ["Delete", "delete"],
  ] as const) {
    await actions.click();
    await page.getByRole("menuitem", { name: item }).click();
    await expect(toast(page).getByText("Access Denied")).toBeVisible();
    await expect(toast(page).getByText(`Only Master Admins can ${words} Master Admin accounts`)).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  }
  // the server refuses the same call made by hand
  const res = await page.request.put(`/api/admin/users/${master.id}`, { data: { lastName: "Hacked" } });
  expect(res.status()).toBe(403);
  expect((await res.json()).message).toBe("Only Master Admins can change a Master Admin account");
  const after = await findUser(pb, email);
  expect([after?.lastName, after?.isApproved]).toEqual([`Master-${tag}`, "approved"]);
});
