// /admin-system blocks 3–5 (spec part 2 §2, §5, §8) on a throw-away server of its own: the
// emergency override, the recalculation and the clean slate change every figure, so they
// run where no other test's data lives.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { BINARY } from "../env";
import { expect, test, toast } from "../fixtures";

const MASTER = { email: "throwaway-master@example.com", password: "master-secret-1" };
const CLEAN_SLATE_CONFIRM =
  "This will completely reset the system for production deployment. All movements, sessions, and balances will be cleared. This cannot be undone. Are you sure?";

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

let server: ChildProcess | undefined;
let dir = "";
let baseURL = "";

test.beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "swapbay-throwaway-"));
  execFileSync(BINARY, ["user", "create", `--email=${MASTER.email}`, `--password=${MASTER.password}`, "--role=master_admin", "--first=Tia", "--last=Throwaway", `--dir=${dir}`]);
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  server = spawn(BINARY, ["serve", `--http=127.0.0.1:${port}`, `--dir=${dir}`], { stdio: "ignore" });
  await expect.poll(async () => (await fetch(`${baseURL}/api/health`).catch(() => null))?.status, { timeout: 30_000 }).toBe(200);
});

test.afterAll(() => {
  server?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

test("override, recalculate and clean slate, each with its confirmation and its message", async ({ browser }, testInfo) => {
  const ctx = await browser.newContext({ ...testInfo.project.use, baseURL });
  const page = await ctx.newPage();
  expect((await ctx.request.post("/api/login", { data: MASTER })).status()).toBe(200);
  const inventory = async () => (await (await ctx.request.get("/api/inventory")).json()) as Record<string, number>;

  // some history: the master admin picks up 4 and drops 1 good and 2 dead
  const key = () => ({ "Idempotency-Key": crypto.randomUUID() });
  expect((await ctx.request.post("/api/driver/pickup", { data: { quantity: 4, notes: "route A" }, headers: key() })).status()).toBe(200);
  expect(
    (await ctx.request.post("/api/driver/dropoff-batteries", { data: { goodBatteries: 1, deadBatteries: 2, notes: "end of shift" }, headers: key() })).status(),
  ).toBe(200);
  const before = await inventory();
  expect(before.waiting).toBe(2);

  await page.goto("/admin-system");
  await test.step("emergency override: the counts set outright after a confirmation", async () => {
    const card = page.getByRole("region", { name: "Emergency Inventory Override" });
    await card.getByRole("button", { name: "Use Current Counts" }).click();
    await expect(card.getByLabel("Waiting")).toHaveValue("2");
    await card.getByLabel("Waiting").fill("5");
    await card.getByLabel("Total").fill(String(before.total + 3));
    await card.getByRole("button", { name: "Apply Override" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm Emergency Override" });
    await expect(dialog).toContainText(`Ready ${before.ready}, Waiting 5, Charging ${before.charging}, Total ${before.total + 3}`);
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await expect(toast(page).getByText("Emergency override applied successfully!")).toBeVisible();
    const after = await inventory();
    expect([after.waiting, after.total]).toEqual([5, before.total + 3]);
  });

  await test.step("recalculate: the counts rebuilt from the movements agree with the ledger (0 corrections), shown in the toast", async () => {
    // every change above went through the ledger, so the rebuild must find nothing to correct:
    // a correction outside an emergency is a bug (DESIGN.md §3)
    const counts = await inventory();
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/recalculate-inventory" && r.request().method() === "POST");
    await page.getByRole("region", { name: "Recalculate Inventory From Movements" }).getByRole("button", { name: "Recalculate Inventory" }).click();
    const res = await answered;
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { corrections: unknown[]; after: Record<string, number> };
    expect(body.corrections).toEqual([]);
    expect(body.after).toMatchObject({ ready: counts.ready, waiting: counts.waiting, charging: counts.charging, total: counts.total });
    await expect(toast(page).getByText("Inventory Recalculated")).toBeVisible();
    await expect(toast(page).getByText(/No corrections needed/)).toBeVisible();
    expect(await inventory()).toEqual(counts);
  });

  await test.step("clean slate: the spec's confirm; dismissed changes nothing, accepted resets", async () => {
    const clean = page.getByRole("region", { name: "Clean Slate" }).getByRole("button", { name: "Clean Slate (Production Ready)" });
    let asked = "";
    page.once("dialog", (d) => {
      asked = d.message();
      void d.dismiss();
    });
    await clean.click();
    expect(asked).toBe(CLEAN_SLATE_CONFIRM);
    expect((await inventory()).waiting).toBeGreaterThan(0);

    page.once("dialog", (d) => void d.accept());
    await clean.click();
    await expect(toast(page).getByText("System reset for production deployment!")).toBeVisible();
    const after = await inventory();
    expect([after.waiting, after.charging, after.ready]).toEqual([0, 0, after.total]);
    const feed = (await (await ctx.request.get("/api/admin/recent-activity")).json()) as unknown[];
    expect(feed.filter((m) => (m as { type: string }).type !== "adjustment")).toEqual([]);
  });
  await ctx.close();
});
