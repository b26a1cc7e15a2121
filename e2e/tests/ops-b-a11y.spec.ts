// axe on the operations screens owned here (every WCAG 2.0–2.2 A/AA rule and target-size, any
// impact: e2e/a11y.ts).
import { expectNoAxeViolations } from "../a11y";
import { ADMIN } from "../env";
import { expect, seedUser, signIn, test } from "../fixtures";

for (const path of ["/admin-charging", "/admin-driver-swaps", "/admin-emergency"]) {
  test(`axe: ${path}`, async ({ page }) => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expectNoAxeViolations(page, path);
  });
}

test("axe: /liaison", async ({ page, pb, unique }) => {
  const liaison = { email: unique("liaison-axe"), password: "liaison-secret-1", firstName: "Lia", lastName: "Axe" };
  await seedUser(pb, { ...liaison, role: "corporate_liason" });
  await signIn(page, liaison.email, liaison.password);
  await page.goto("/liaison");
  await expect(page.getByRole("heading", { name: "Operations Dashboard" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await expectNoAxeViolations(page, "/liaison");
  await page.getByRole("tab", { name: "Charging" }).click();
  await expectNoAxeViolations(page, "/liaison, Charging");
});
