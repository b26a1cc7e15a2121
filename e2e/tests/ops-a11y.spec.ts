// axe-core on the operations screens: no serious or critical violations (admin home,
// driver home, Driver Console, Driver Dropoff Notes), at both widths.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { ADMIN } from "../env";
import { expect, seedUser, signIn, test } from "../fixtures";

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("admin operations screens have no serious accessibility violations", async ({ page, shot }) => {
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
    expect(await seriousViolations(page), path).toEqual([]);
  }
});

test("the driver home has no serious accessibility violations", async ({ page, pb, shot, unique }) => {
  const email = unique("a11y-driver");
  await seedUser(pb, { email, password: "driver-secret-1", firstName: "Ally", lastName: "Driver" });
  await signIn(page, email, "driver-secret-1");
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Driver Home" })).toBeVisible();
  await shot("driver-home");
  expect(await seriousViolations(page)).toEqual([]);
});
