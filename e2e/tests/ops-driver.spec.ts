// The driver's field day at phone size (spec part 1 §2, §5, §8): pick up, drop off good and
// dead batteries, log moves and recovers. Every step goes through the Confirm Action dialog
// or the card's quick entry, is checked on screen, and then through the API with expect.poll.
import type { Page } from "@playwright/test";
import { expect, seedUser, signIn, test, toast } from "../fixtures";

type State = {
  stats: { ready: number; waiting: number; inField: number };
  activeBatteryHolders: { user: { id: string }; quantity: number }[];
  driverDailyActivity: { rebalanceToday: number; retrievesRepairsToday: number };
};

async function state(page: Page): Promise<State> {
  const res = await page.request.get("/api/state");
  expect(res.status()).toBe(200);
  return (await res.json()) as State;
}

const held = (s: State, userId: string) => s.activeBatteryHolders.filter((h) => h.user.id === userId).reduce((n, h) => n + h.quantity, 0);

test("a driver picks up, drops off good and dead batteries, logs moves and recovers", async ({ page, pb, shot, unique }) => {
  const email = unique("field-driver");
  const driver = await seedUser(pb, { email, password: "driver-secret-1", firstName: "Fay", lastName: "Field" });
  await signIn(page, email, "driver-secret-1");
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Driver Home" })).toBeVisible();
  const before = await state(page);

  const pickupForm = page.getByRole("form", { name: "Battery Pickup" });
  const dropoffForm = page.getByRole("form", { name: "Battery Dropoff" });
  const dialog = page.getByRole("dialog");

  await test.step("the forms refuse empty submissions with the spec's messages", async () => {
    await pickupForm.getByRole("button", { name: "Record Pickup" }).click();
    await expect(pickupForm.getByText("Quantity is required")).toBeVisible();
    await expect(pickupForm.getByText("This field is required")).toBeVisible();
    await dropoffForm.getByRole("button", { name: "Record Dropoff" }).click();
    await expect(dropoffForm.getByText("You must drop off at least one battery (good or dead)")).toBeVisible();
    await expect(dropoffForm.getByText("Please provide notes about your drop-off")).toBeVisible();
    await expect(dialog).toHaveCount(0);
  });

  await test.step("pick up 4, edited to 5 in the Confirm dialog", async () => {
    await pickupForm.getByLabel("Quantity").fill("4");
    await pickupForm.getByLabel("Did you plug in dead batteries? (Required)").fill("Y");
    await pickupForm.getByRole("button", { name: "Record Pickup" }).click();
    await expect(dialog.getByRole("heading", { name: "Confirm Pickup" })).toBeVisible();
    await expect(dialog.getByText("Are you sure?")).toBeVisible();
    await shot("driver-confirm-pickup");
    await dialog.getByRole("button", { name: "Edit" }).click();
    await dialog.getByLabel("Quantity").fill("5");
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await expect(toast(page).getByText("Battery pickup recorded successfully")).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Your Batteries\s*5\s*In your possession/ })).toBeVisible();
    await expect.poll(async () => held(await state(page), driver.id)).toBe(5);
    await expect.poll(async () => (await state(page)).stats.ready).toBe(before.stats.ready - 5);
  });

  await test.step("drop off 3 good and 2 dead", async () => {
    const mid = await state(page);
    await dropoffForm.getByLabel("Good Batteries").fill("3");
    await dropoffForm.getByLabel("Dead Batteries").fill("2");
    await dropoffForm.getByLabel("Notes (Required)").fill("Two cells swollen on scooter 41");
    await dropoffForm.getByRole("button", { name: "Record Dropoff" }).click();
    await expect(dialog.getByRole("heading", { name: "Confirm Dropoff" })).toBeVisible();
    await expect(dialog.getByText("Good Batteries").locator("xpath=following-sibling::dd")).toHaveText("3");
    await expect(dialog.getByText("Dead Batteries").locator("xpath=following-sibling::dd")).toHaveText("2");
    await shot("driver-confirm-dropoff");
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await expect(toast(page).getByText("Battery dropoff recorded successfully")).toBeVisible();
    await expect(page.getByRole("list", { name: "Your Recent Activity" }).getByText("Fay Field dropped off 5 batteries (3 good, 2 dead)")).toBeVisible();
    await expect
      .poll(async () => {
        const s = await state(page);
        return { ready: s.stats.ready - mid.stats.ready, waiting: s.stats.waiting - mid.stats.waiting, held: held(s, driver.id) };
      })
      .toEqual({ ready: 3, waiting: 2, held: 0 });
  });

  await test.step("log 6 moves and 2 recovers; 0 just closes", async () => {
    await page.getByRole("button", { name: "Log Moves" }).click();
    await page.getByLabel("Moves to log").fill("0");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByLabel("Moves to log")).toHaveCount(0);

    await page.getByRole("button", { name: "Log Moves" }).click();
    await page.getByLabel("Moves to log").fill("6");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(toast(page).getByText("Moves activity logged successfully")).toBeVisible();
    await expect(page.getByRole("group", { name: "Moves" }).getByRole("button", { name: /^6\s*Today$/ })).toBeVisible();

    await page.getByRole("button", { name: "Log Recovers" }).click();
    await page.getByLabel("Recovers to log").fill("2");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(toast(page).getByText("Recovers activity logged successfully")).toBeVisible();
    await expect(page.getByRole("group", { name: "Recovers" }).getByRole("button", { name: /^2\s*Today$/ })).toBeVisible();
    await expect
      .poll(async () => (await state(page)).driverDailyActivity)
      .toEqual({ rebalanceToday: 6, retrievesRepairsToday: 2 });

    // a tap cycles today → this week
    await page.getByRole("group", { name: "Moves" }).getByRole("button", { name: /^6\s*Today$/ }).click();
    await expect(page.getByRole("group", { name: "Moves" }).getByRole("button", { name: /^6\s*This week$/ })).toBeVisible();
    await shot("driver-home-after-journey");
  });
});
