// axe-core on the operations screens (admin home, driver home, Driver Console, Driver Dropoff
// Notes), at both widths: every WCAG 2.0–2.2 A/AA rule and target-size, any impact (e2e/a11y.ts).
import { expectNoAxeViolations } from "../a11y";
import { ADMIN } from "../env";
import { expect, seedUser, signIn, test } from "../fixtures";

test("admin operations screens have no accessibility violations", async ({ page, shot }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  for (const [path, heading, name] of [
    ["/", "Home", "admin-home"],
    ["/admin-console", "Driver Console", "admin-console"],
    ["/admin-dropoff-notes", "Driver Dropoff Notes", "admin-dropoff-notes"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, exact: true })).toBeVisible();
    await expect(page.getByText("Loading driver activity...")).toHaveCount(0);
    await shot(name);
    await expectNoAxeViolations(page, path);
  }
});

test("the driver home has no accessibility violations", async ({ page, pb, shot, unique }) => {
  const email = unique("a11y-driver");
  await seedUser(pb, { email, password: "driver-secret-1", firstName: "Ally", lastName: "Driver" });
  await signIn(page, email, "driver-secret-1");
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Driver Home" })).toBeVisible();
  await shot("driver-home");
  await expectNoAxeViolations(page, "driver home");
});
