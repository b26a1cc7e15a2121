// Keyboard-only journeys, one per role (issue 28 item 4): after the first page.goto, only
// page.keyboard (Tab, Shift+Tab, Enter, Space, arrows, typing) — no clicks, no fill, no focus().
// At every focus stop tabTo checks that the focused element shows a focus indicator, lies in
// the viewport and is not under the sticky header or a toast (WCAG 2.2 SC 2.4.7, 2.4.11).
// Results are read back through the API.
import type { Page } from "@playwright/test";
import { ADMIN } from "../env";
import { describedAs, expectFocusVisible, tabTo } from "../a11y";
import { expect, findUser, seedUser, signIn, test, toast } from "../fixtures";
import { chooseOption, press, signInWithKeyboard, typeInto } from "../keyboard";

// step-by-step focus checks are slow on a loaded 2-core machine: they wait on conditions, never on time
test.describe.configure({ timeout: 240_000 });

/** myHoldings sums what the signed-in driver of page holds, from /api/state. */
async function myHoldings(page: Page, userId: string): Promise<number> {
  const res = await page.request.get("/api/state");
  expect(res.status()).toBe(200);
  const state = (await res.json()) as { inFieldSummary: { userId: string; quantity: number }[] };
  return state.inFieldSummary.filter((s) => s.userId === userId).reduce((n, s) => n + s.quantity, 0);
}

test("driver: signs in, picks up, drops off good and dead batteries with a note", async ({ page, pb, unique }, testInfo) => {
  test.slow();
  const driver = { email: unique("kbd-driver"), password: "driver-secret-1", firstName: "Kay", lastName: `Board-${testInfo.project.name}` };
  const { id } = await seedUser(pb, driver);
  await page.goto("/");

  await test.step("sign in", async () => {
    await signInWithKeyboard(page, driver.email, driver.password);
    await expect(page.getByRole("heading", { level: 1, name: "Driver Home" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("button", { name: /^Your Batteries\s*0\s*In your possession/ })).toBeVisible();
  });

  await test.step("pick up 3", async () => {
    const form = page.getByRole("form", { name: "Battery Pickup" });
    await typeInto(page, form.getByLabel("Quantity"), "3");
    await typeInto(page, form.getByLabel("Did you plug in dead batteries? (Required)"), "Y");
    await tabTo(page, form.getByRole("button", { name: "Record Pickup" }));
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Confirm Pickup" });
    await expect(dialog.getByText("Are you sure?")).toBeVisible();
    await expectFocusVisible(page); // the dialog takes focus
    await tabTo(page, dialog.getByRole("button", { name: "Confirm" }));
    await page.keyboard.press("Enter");
    await expect(toast(page).getByText("Battery pickup recorded successfully")).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expectFocusVisible(page); // back on Record Pickup, not under the toast
    await expect(page.getByRole("button", { name: /^Your Batteries\s*3\s*In your possession/ })).toBeVisible();
    await expect.poll(() => myHoldings(page, id)).toBe(3);
  });

  await test.step("drop off 1 good and 2 dead with a note (the dropoff form is below the pickup's: Tab on)", async () => {
    const form = page.getByRole("form", { name: "Battery Dropoff" });
    // the pickup's toast is still up: focus moving down the page must not end under it
    await typeInto(page, form.getByLabel("Good Batteries"), "1");
    await typeInto(page, form.getByLabel("Dead Batteries"), "2");
    await typeInto(page, form.getByLabel("Notes (Required)"), "Throttle sticks on scooter 12");
    await tabTo(page, form.getByRole("button", { name: "Record Dropoff" }));
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Confirm Dropoff" });
    await expect(dialog.getByText("Notes: Throttle sticks on scooter 12")).toBeVisible();
    await tabTo(page, dialog.getByRole("button", { name: "Confirm" }));
    await page.keyboard.press("Enter");
    await expect(toast(page).getByText("Battery dropoff recorded successfully")).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expectFocusVisible(page);
    await expect(page.getByRole("button", { name: /^Your Batteries\s*0\s*In your possession/ })).toBeVisible();
    await expect.poll(() => myHoldings(page, id)).toBe(0);
    const [dropoff] = await pb
      .collection("movements")
      .getFullList({ filter: pb.filter("user = {:id} && type = 'dropoff'", { id }) });
    expect(dropoff).toMatchObject({ goodBatteries: 1, deadBatteries: 2, notes: expect.stringContaining("Throttle sticks on scooter 12") });
  });

  await test.step("the batteries card cycles with Enter", async () => {
    await tabTo(page, page.getByRole("button", { name: /^Your Batteries\b/ }), { back: true });
    await press(page, "Enter");
    await expect(page.getByRole("button", { name: /^Dead Batteries Dropped\s*2\s*Today/ })).toBeVisible();
  });
});

test("admin: starts a charging session, marks it done, approves a pending user", async ({ browser, page, pb, unique }, testInfo) => {
  test.slow();
  // 7 dead batteries to charge, from a driver; a pending user to approve
  const driver = { email: unique("kbd-feeder"), password: "driver-secret-1", firstName: "Fee", lastName: "Der" };
  await seedUser(pb, driver);
  const ctx = await browser.newContext();
  const driverPage = await ctx.newPage();
  await signIn(driverPage, driver.email, driver.password);
  expect((await driverPage.request.post("/api/driver/pickup", { data: { quantity: 7, notes: "Y" } })).status()).toBe(200);
  expect(
    (await driverPage.request.post("/api/driver/dropoff-batteries", { data: { goodBatteries: 0, deadBatteries: 7, notes: "all flat" } })).status(),
  ).toBe(200);
  await ctx.close();
  const pending = { email: unique("kbd-pending"), password: "pending-secret-1", firstName: "Pia", lastName: `Pending-${testInfo.project.name}` };
  await seedUser(pb, { ...pending, isApproved: "pending" });

  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/admin-charging");
  // the first screen of a fresh server on a loaded machine: its chunks may take a while
  await expect(page.getByRole("heading", { level: 1, name: "Charging" })).toBeVisible({ timeout: 30_000 });
  const sessions = async () => {
    const res = await page.request.get("/api/admin/charging-sessions");
    expect(res.status()).toBe(200);
    return (await res.json()) as { id: string; chargerType: string; quantity: number }[];
  };
  const before = new Set((await sessions()).map((s) => s.id));
  const label = "5A session of 7";

  await test.step("start a 5A session of 7", async () => {
    await tabTo(page, page.getByRole("combobox", { name: "Charger Type" }));
    await page.keyboard.press("Enter");
    await chooseOption(page, "5A");
    await expectFocusVisible(page); // back on the trigger
    await typeInto(page, page.getByLabel("Number of Batteries"), "7");
    await tabTo(page, page.getByRole("button", { name: "Start Charging" }));
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Confirm Charging Session" });
    await expect(dialog.getByText("Are you sure?")).toBeVisible();
    await tabTo(page, dialog.getByRole("button", { name: "Confirm" }));
    await page.keyboard.press("Enter");
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole("button", { name: `Edit quantity of ${label}` })).toBeVisible();
    await expect
      .poll(async () => (await sessions()).filter((s) => !before.has(s.id)).map((s) => `${s.chargerType} ${s.quantity}`))
      .toEqual(["5A 7"]);
  });

  await test.step("mark it done", async () => {
    const started = (await sessions()).find((s) => !before.has(s.id))!;
    const row = page.getByRole("row").filter({ has: page.getByRole("button", { name: `Edit quantity of ${label}` }) });
    await tabTo(page, row.getByRole("button", { name: "Mark Done" }));
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Mark Charging Session Done" });
    await expect(dialog.getByText("Are you sure?")).toBeVisible();
    await tabTo(page, dialog.getByRole("button", { name: "Confirm" }));
    await page.keyboard.press("Enter");
    await expect(toast(page).getByText("Charging session completed successfully")).toBeVisible();
    await expect(page.getByRole("button", { name: `Edit quantity of ${label}` })).toHaveCount(0);
    await expect.poll(async () => (await sessions()).some((s) => s.id === started.id)).toBe(false);
  });

  await test.step("go to Users with the admin navigation", async () => {
    const links = page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Users" });
    if (await links.isVisible()) {
      // the Charging page is below the tab bar: back up to it
      await tabTo(page, links, { back: true });
      await page.keyboard.press("Enter");
    } else {
      await tabTo(page, page.getByRole("combobox", { name: "Admin navigation" }), { back: true });
      await page.keyboard.press("Enter");
      await chooseOption(page, "Users");
    }
    await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
  });

  await test.step("approve the pending user", async () => {
    const name = `${pending.firstName} ${pending.lastName}`;
    await tabTo(page, page.getByRole("button", { name: `Approve ${name}` }));
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await findUser(pb, pending.email))?.isApproved).toBe("approved");
    await expect(page.getByRole("button", { name: `Approve ${name}` })).toHaveCount(0);
    // the row and its button are gone: focus stays in the Pending Approval card (the next
    // user's first button, or the card), not back at the top of the page
    await expect
      .poll(() => page.evaluate(() => !!document.activeElement?.closest('[aria-labelledby="pending-approval-title"]')))
      .toBe(true);
  });
});

test("liaison: signs in and reads the console's sections", async ({ page, pb, unique }) => {
  test.slow();
  const liaison = { email: unique("kbd-liaison"), password: "liaison-secret-1", firstName: "Lio", lastName: "Keys" };
  await seedUser(pb, { ...liaison, role: "corporate_liason" });
  await page.goto("/");
  await signInWithKeyboard(page, liaison.email, liaison.password);
  await expect(page.getByRole("heading", { level: 1, name: "Operations Dashboard" })).toBeVisible({ timeout: 30_000 });

  await test.step("the weekly figures toggle with Enter", async () => {
    const rebalances = page.getByRole("button", { name: /^Weekly Rebalances\s*\d+\s*This week/ });
    await tabTo(page, rebalances);
    await press(page, "Enter");
    await expect(page.getByRole("button", { name: /^Weekly Rebalances\s*\d+\s*Last week/ })).toBeVisible();
  });

  await test.step("the tabs with the arrow keys, each panel read with Tab", async () => {
    await tabTo(page, page.getByRole("tab", { name: "Overview" }), { back: true });
    for (const [tab, content] of [
      ["Charging", page.getByRole("heading", { name: "Next Ready" })],
      ["Drop-offs", page.getByRole("tabpanel", { name: "Drop-offs" })],
      ["Photos", page.getByRole("heading", { name: "Broken Scooter Photos" })],
    ] as const) {
      await press(page, "ArrowRight");
      await expect(page.getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
      await expect(content).toBeVisible();
    }
    await press(page, "Home");
    await expect(page.getByRole("tab", { name: "Overview" })).toHaveAttribute("aria-selected", "true");
    // Tab leaves the tab list into the Overview panel
    await press(page, "Tab");
    await tabTo(page, page.getByRole("button", { name: /^Weekly Recovers\b/ }));
  });

  await test.step("the user menu opens with Enter and closes with Escape", async () => {
    await tabTo(page, describedAs(page, "User menu"), { back: true });
    await page.keyboard.press("Enter");
    await expect(page.getByRole("menuitem", { name: "Change Password" })).toBeFocused();
    await expectFocusVisible(page);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu")).toHaveCount(0);
    await expect(describedAs(page, "User menu")).toBeFocused();
    await expectFocusVisible(page);
  });
});
