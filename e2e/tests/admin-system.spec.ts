// /admin-system blocks 1–3 (spec part 2 §2): settings saved and seen on a driver's form, the
// time zone kept, and the history wipe's count and typed confirmation. (Clean slate runs on
// a throw-away server in Go: modules/system TestCleanSlateAPI; here it would wipe the other
// tests' data.)
import { ADMIN } from "../env";
import { expect, seedUser, signIn, test, toast } from "../fixtures";

test("a master admin saves settings and checks the history wipe", async ({ page, pb, unique, browser, shot }) => {
  const master = unique("master");
  await seedUser(pb, { email: master, password: "master-secret-1", firstName: "Mo", lastName: "Master", role: "master_admin" });
  await signIn(page, master, "master-secret-1");
  await page.goto("/admin-system");

  const settings = page.getByRole("region", { name: "System Settings" });
  await expect(settings.getByLabel("Total Batteries")).not.toHaveValue("");
  await settings.getByLabel("Total Batteries").fill("1.5");
  await settings.getByRole("button", { name: "Save Settings" }).click();
  await expect(settings.getByText("Total batteries must be a whole number 0 or greater")).toBeVisible();

  const prompt = `Count the dead ones twice (${test.info().project.name})`;
  await settings.getByLabel("Total Batteries").fill("160");
  await settings.getByLabel("Dropoff Prompt").fill(prompt);
  await settings.getByLabel("Time Zone").fill("Europe/Berlin");
  await settings.getByRole("button", { name: "Save Settings" }).click();
  await expect(toast(page).getByText("Settings saved successfully!")).toBeVisible();
  await page.reload();
  await expect(settings.getByLabel("Time Zone")).toHaveValue("Europe/Berlin");

  // a driver sees the prompt in the dropoff form (the notes field asks it)
  const driver = unique("prompt-driver");
  await seedUser(pb, { email: driver, password: "driver-secret-1", firstName: "Pia", lastName: "Prompt" });
  const ctx = await browser.newContext();
  const dp = await ctx.newPage();
  await signIn(dp, driver, "driver-secret-1");
  await dp.goto("/");
  await expect(dp.getByPlaceholder(prompt)).toBeVisible();
  await ctx.close();

  // the wipe: the count for a date, then the typed confirmation
  const wipe = page.getByRole("region", { name: "History Management" });
  await wipe.getByLabel("Delete History Before Date").fill("2001-01-01");
  await expect(wipe.getByText("0 movement(s) will be removed.")).toBeVisible();
  await wipe.getByLabel("Type DELETE HISTORY to confirm").fill("delete");
  await wipe.getByRole("button", { name: "Delete History" }).click();
  await expect(wipe.getByText("Please type DELETE HISTORY to confirm")).toBeVisible();
  await wipe.getByLabel("Type DELETE HISTORY to confirm").fill("DELETE HISTORY");
  await wipe.getByRole("button", { name: "Delete History" }).click();
  await expect(toast(page).getByText("History wiped successfully!")).toBeVisible();

  // back to UTC for the other tests
  await settings.getByLabel("Time Zone").fill("UTC");
  await settings.getByRole("button", { name: "Save Settings" }).click();
  await expect(toast(page).getByText("Settings saved successfully!")).toBeVisible();
  await expect(page.getByRole("region", { name: "Clean Slate" }).getByRole("button", { name: "Clean Slate (Production Ready)" })).toBeEnabled();
  await shot("admin-system");
});

test("a plain admin is shown neither the history wipe nor the clean slate, which the server refuses them", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/admin-system");
  await expect(page.getByRole("region", { name: "System Settings" }).getByLabel("Total Batteries")).not.toHaveValue("");
  await expect(page.getByRole("region", { name: "Emergency Inventory Override" })).toBeVisible();
  await expect(page.getByRole("region", { name: "History Management" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Clean Slate" })).toHaveCount(0);
  const wipe = await page.request.post("/api/admin/history/wipe", { data: { targetDate: "2001-01-01", confirmPhrase: "DELETE HISTORY" } });
  expect(wipe.status()).toBe(403);
});
