// Continuous replication on the System page (issue 29, DESIGN.md §13): a master admin turns it
// on to a directory replica and sees it on, with its target, lag and last sync; the replica
// directory fills; a plain admin sees the status but no form; bad input is refused with the
// server's wording and nothing saved; turning it off stops it (and leaves the server as the
// other specs expect it).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ADMIN } from "../env";
import { expect, seedUser, signIn, test, toast } from "../fixtures";

/** files lists every file under dir (the replica's LTX files). */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => d.name);
}

test("a master admin replicates to a directory, an admin watches, then it is turned off", async ({ page, pb, unique, browser, shot }) => {
  test.slow(); // 20–34 s on a quiet machine: a third or more of the 60 s default, which a loaded 2-core CI machine passes
  const replica = path.join(mkdtempSync(path.join(os.tmpdir(), "swapbay-e2e-replica-")), test.info().project.name);
  const master = unique("repl-master");
  await seedUser(pb, { email: master, password: "master-secret-1", firstName: "Rex", lastName: "Plica", role: "master_admin" });
  await signIn(page, master, "master-secret-1");
  await page.goto("/admin-system");
  const card = page.getByRole("region", { name: "Continuous Replication" });
  await expect(card.getByText("Only the scheduled backups leave this machine.")).toBeVisible();

  // refused with the server's wording, nothing saved
  await card.getByRole("checkbox", { name: "Replicate continuously" }).check();
  await card.getByRole("button", { name: "Save Replication Settings" }).click();
  await expect(card.getByText("Replica URL is required to turn replication on")).toBeVisible();
  await card.getByLabel("Replica URL").fill("ftp://example.com/db");
  await card.getByRole("button", { name: "Save Replication Settings" }).click();
  await expect(card.getByText("Replica URL must be s3://bucket/path?endpoint=…&region=… or file:///absolute/dir")).toBeVisible();
  const relative = await page.request.put("/api/admin/replication", { data: { enabled: true, url: "file://relative/dir" } });
  expect(relative.status(), await relative.text()).toBe(400);
  expect((await relative.json()).code).toBe("validation_failed");
  await expect(card.getByText("Only the scheduled backups leave this machine.")).toBeVisible();

  // on, to a directory: saved, shown on, the replica fills
  await card.getByLabel("Replica URL").fill(`file://${replica}`);
  await card.getByRole("button", { name: "Save Replication Settings" }).click();
  await expect(toast(page).getByText("Replication settings saved")).toBeVisible();
  await expect(toast(page).getByText(`Replicating to file://${replica}`)).toBeVisible();
  const status = card.locator("dl");
  await expect(status.getByText("On", { exact: true })).toBeVisible();
  await expect(status.getByText(`file://${replica}`)).toBeVisible();
  await expect.poll(() => files(replica).filter((f) => f.endsWith(".ltx")).length, { timeout: 30_000 }).toBeGreaterThan(0);
  // a write reaches it: the last sync is shown once the status polls after it
  const driver = unique("repl-driver");
  await seedUser(pb, { email: driver, password: "driver-secret-1", firstName: "Wes", lastName: "Rite" });
  await expect(status.getByText("Not yet")).toHaveCount(0, { timeout: 30_000 });
  await expect(card.getByRole("alert")).toHaveCount(0);
  await shot("admin-system-replication");

  // a plain admin: the status, no form
  const ctx = await browser.newContext();
  const admin = await ctx.newPage();
  await signIn(admin, ADMIN.email, ADMIN.password);
  await admin.goto("/admin-system");
  const seen = admin.getByRole("region", { name: "Continuous Replication" });
  await expect(seen.locator("dl").getByText(`file://${replica}`)).toBeVisible();
  await expect(seen.getByLabel("Replica URL")).toHaveCount(0);
  const put = await admin.request.put("/api/admin/replication", { data: { enabled: false, url: "" } });
  expect(put.status(), await put.text()).toBe(403);
  await ctx.close();

  // off again: the status says so
  await card.getByRole("checkbox", { name: "Replicate continuously" }).uncheck();
  await card.getByRole("button", { name: "Save Replication Settings" }).click();
  await expect(toast(page).getByText("Replication is off")).toBeVisible();
  await expect(card.getByText("Only the scheduled backups leave this machine.")).toBeVisible();
  rmSync(path.dirname(replica), { recursive: true, force: true });
});
