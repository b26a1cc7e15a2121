// The corporate liaison's read-only dashboard (spec part 1 §2, §6): the overview figures,
// charging, drop-offs and photos tabs, the user menu — and no write control anywhere.
import type { Page } from "@playwright/test";
import { describedAs } from "../a11y";
import { expect, seedUser, signIn, test } from "../fixtures";

const WRITE_BUTTONS = /Mark Done|Delete|Edit|Confirm|Assign|Start Charging|Record|Apply|Recalculate|Update|Transfer/;

async function expectNoWriteControls(page: Page) {
  await expect(page.getByRole("button", { name: WRITE_BUTTONS })).toHaveCount(0);
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await expect(page.getByRole("spinbutton")).toHaveCount(0);
}

test("liaison sees the read-only operations dashboard", async ({ page, pb, shot, unique }) => {
  const liaison = { email: unique("liaison"), password: "liaison-secret-1", firstName: "Lia", lastName: "Son" };
  await seedUser(pb, { ...liaison, role: "corporate_liason" });
  await signIn(page, liaison.email, liaison.password);

  await page.goto("/liaison");
  await expect(page.getByRole("heading", { name: "Operations Dashboard" })).toBeVisible();
  await expect(page.getByText("View-Only Access")).toBeVisible();
  const figures = page.getByRole("list", { name: "Fleet figures" });
  await expect(figures.getByText(/Total Fleet Size|Battery Total/).locator("visible=true")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Weekly Operational Performance" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Current Asset Assignments" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Weekly Personnel Performance" })).toBeVisible();
  const rebalances = page.getByRole("button", { name: /^Weekly Rebalances\s*\d+\s*This week/ });
  await rebalances.click();
  await expect(page.getByRole("button", { name: /^Weekly Rebalances\s*\d+\s*Last week/ })).toBeVisible();
  await expectNoWriteControls(page);
  await shot("liaison-overview");

  await page.getByRole("tab", { name: "Charging" }).click();
  const table = page.getByRole("region", { name: "Active Charging Sessions" });
  await expect(table).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Action" })).toHaveCount(0);
  await expectNoWriteControls(page);
  await shot("liaison-charging");

  await page.getByRole("tab", { name: "Drop-offs" }).click();
  await expect(page.getByRole("heading", { name: "Recent Drop-offs" })).toBeVisible();
  await expectNoWriteControls(page);

  await page.getByRole("tab", { name: "Photos" }).click();
  // the phone project's field specs upload a photo on the same server before this one runs:
  // the gallery shows its empty state, or a count of one or more
  await expect(
    page.getByText("No photos uploaded yet. Photos from drivers will appear here.").or(page.getByText(/^[1-9]\d* photo\(s\)$/)),
  ).toBeVisible();

  await describedAs(page, "User menu").click();
  const menu = page.getByRole("menu");
  await expect(menu.getByText("Corporate Liaison")).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Change Password" })).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Logout" })).toBeVisible();
  await shot("liaison-menu");
  await menu.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);

  // the server agrees: the liaison's writes are refused
  await signIn(page, liaison.email, liaison.password);
  const res = await page.request.post("/api/start-charging", { data: { chargerType: "4A", quantity: 1 } });
  expect(res.status()).toBe(403);
});
