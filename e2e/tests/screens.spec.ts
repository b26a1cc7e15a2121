// Every admin screen at the project's width (desktop 1280 px, phone 390 px): it renders its
// heading, nothing overflows sideways, and a full-page screenshot is kept
// (screenshots/<project>-screen-<name>.png) for a person to check the layout.
import { ADMIN } from "../env";
import { expect, signIn, test } from "../fixtures";

const SCREENS: { name: string; path: string; heading: string | RegExp }[] = [
  { name: "home", path: "/", heading: "Home" },
  { name: "driver-console", path: "/admin-console", heading: "Driver Console" },
  { name: "charging", path: "/admin-charging", heading: "Charging" },
  { name: "driver-management", path: "/admin-driver-swaps", heading: "Driver Management" },
  { name: "dropoff-notes", path: "/admin-dropoff-notes", heading: "Driver Dropoff Notes" },
  { name: "emergency", path: "/admin-emergency", heading: "Emergency Inventory" },
  { name: "photos", path: "/admin-photos", heading: "Photos" },
  { name: "users", path: "/admin-users", heading: "Users" },
  { name: "system", path: "/admin-system", heading: "System" },
  { name: "change-password", path: "/change-password", heading: "Change Password" },
  { name: "debug", path: "/mobile-debug", heading: "Debug Info" },
];

test("every admin screen renders without sideways overflow", async ({ page, shot }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  for (const s of SCREENS) {
    await test.step(s.name, async () => {
      await page.goto(s.path);
      await expect(page.getByRole("heading", { level: 1, name: s.heading }).first()).toBeVisible();
      await page.waitForLoadState("networkidle");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${s.path} is ${overflow}px wider than the screen`).toBeLessThanOrEqual(0);
      await shot(`screen-${s.name}`);
    });
  }
});
