// axe-core on the operations screens owned here: no serious or critical violations.
import { ADMIN } from "../env";
import { expect, seedUser, signIn, test } from "../fixtures";
import { expectAccessible } from "./ops-b-axe";

for (const path of ["/admin-charging", "/admin-driver-swaps", "/admin-emergency"]) {
  test(`axe: ${path}`, async ({ page }) => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expectAccessible(page);
  });
}

test("axe: /liaison", async ({ page, pb, unique }) => {
  const liaison = { email: unique("liaison-axe"), password: "liaison-secret-1", firstName: "Lia", lastName: "Axe" };
  await seedUser(pb, { ...liaison, role: "corporate_liason" });
  await signIn(page, liaison.email, liaison.password);
  await page.goto("/liaison");
  await expect(page.getByRole("heading", { name: "Operations Dashboard" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await expectAccessible(page);
  await page.getByRole("tab", { name: "Charging" }).click();
  await expectAccessible(page);
});
