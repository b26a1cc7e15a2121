// Scheduled backups on /admin-system (DESIGN.md §11): an admin changes the daily time and the
// number kept, backs up now, and sees the backup listed with its time and size.
import { ADMIN } from "../env";
import { expect, signIn, test, toast } from "../fixtures";

test("an admin schedules backups and backs up now", async ({ page, shot }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/admin-system");
  const card = page.getByRole("region", { name: "Scheduled Backups" });
  await expect(card.getByLabel("Backup Time")).toHaveValue("03:00");
  await expect(card.getByLabel("Backups to Keep")).toHaveValue("7");

  await card.getByLabel("Backups to Keep").fill("0");
  await card.getByRole("button", { name: "Save Schedule" }).click();
  await expect(card.getByText("Backups to keep must be a whole number from 1 to 100")).toBeVisible();

  await card.getByLabel("Backup Time").fill("02:30");
  await card.getByLabel("Backups to Keep").fill("5");
  await card.getByRole("button", { name: "Save Schedule" }).click();
  await expect(toast(page).getByText("Backup schedule saved")).toBeVisible();
  await expect
    .poll(async () => (await (await page.request.get("/api/admin/backups")).json()).schedule)
    .toMatchObject({ enabled: true, time: "02:30", keep: 5 });

  await card.getByRole("button", { name: "Back Up Now" }).click();
  await expect(toast(page).getByText("Backup created")).toBeVisible({ timeout: 30_000 });
  await expect(card.getByText(/^Last backup: .+ · [\d.]+ (KB|MB)$/)).toBeVisible();
  await expect(card.getByRole("list", { name: "Stored backups" }).getByRole("listitem")).not.toHaveCount(0);
  await shot("admin-system-backups");
});
