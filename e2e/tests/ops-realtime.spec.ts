// Realtime (spec part 1 §4): a second browser context sees an admin's change arrive over
// /ws, without a reload and well before the 60 s polling would bring it.
import { ADMIN } from "../env";
import { expect, seedUser, signIn, test, toast } from "../fixtures";

test("a watching admin sees another admin's change without reloading", async ({ browser, page, pb, unique }) => {
  const email = unique("second-admin");
  await seedUser(pb, { email, password: "admin-secret-2", firstName: "Sam", lastName: "Second", role: "admin" });

  // the watcher
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/");
  const feed = page.getByRole("list", { name: "Recent Activity" });
  await expect(page.getByRole("heading", { name: "Recent Activity" })).toBeVisible();
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  // the Moves card's figure: named by what it shows, "128 This week, all drivers"
  const movesCard = page.getByRole("group", { name: "Moves" }).getByRole("button", { name: /^\d+\s*This week/ });
  const before = Number(/^(\d+)/.exec((await movesCard.textContent()) ?? "")![1]);

  // the actor, in its own context
  const ctx = await browser.newContext();
  const actor = await ctx.newPage();
  await signIn(actor, email, "admin-secret-2");
  await actor.goto("/");
  await actor.getByRole("button", { name: "Log Moves" }).click();
  await actor.getByLabel("Moves to log").fill("9");
  await actor.getByRole("button", { name: "Save" }).click();
  await expect(toast(actor).getByText("Moves activity logged successfully")).toBeVisible();
  await ctx.close();

  // arrives over the websocket: well within 15 s, no reload
  await expect(feed.getByText("Sam Second logged 9 moves")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("group", { name: "Moves" }).getByRole("button", { name: new RegExp(`^${before + 9}\\s*This week`) })).toBeVisible({ timeout: 15_000 });
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
});
