// Where the outbox, the idempotency keys, the session and the realtime link meet (issue 32):
// each journey at phone size, with the network cut for real (context.setOffline AND every
// request aborted by page.route: setOffline alone lets a service worker's requests through),
// and checked on the server (movements, stored keys) as well as on screen.
import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { request as pwRequest } from "@playwright/test";
import { drawSignature } from "../draw";
import { ADMIN, BASE_URL } from "../env";
import { newDriver, quickLog, workerReady } from "../field";
import { expect, test } from "../fixtures";

type Movement = { id: string; type: string; quantity: number };

test.describe.configure({ timeout: 150_000 });
// the worker serves the app's chunks while the network is cut, as on a phone
test.use({ serviceWorkers: "allow" });

async function movements(page: Page): Promise<Movement[]> {
  const res = await page.request.get("/api/driver/recent-movements");
  expect(res.status()).toBe(200);
  return (await res.json()) as Movement[];
}

function status(page: Page) {
  return page.getByTestId("outbox-status");
}

/**
 * network cuts the network for real, or restores it: the browser offline AND every API call
 * aborted (the page's chunks come from the service worker's precache meanwhile).
 */
async function network(context: BrowserContext, _page: Page, on: boolean) {
  if (on) {
    await context.unroute("**/api/**");
    await context.setOffline(false);
  } else {
    await context.setOffline(true);
    await context.route("**/api/**", (route) => route.abort("internetdisconnected"));
  }
}

async function adminRequest(): Promise<APIRequestContext> {
  const ctx = await pwRequest.newContext({ baseURL: BASE_URL });
  const res = await ctx.post("/api/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  expect(res.status(), await res.text()).toBe(200);
  return ctx;
}

/** queuedKeys reads the keys waiting in the page's outbox (IndexedDB), in queue order. */
function queuedKeys(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const req = indexedDB.open("swapbay-outbox");
        req.onsuccess = () => {
          const get = req.result.transaction("items").objectStore("items").getAll();
          get.onsuccess = () => {
            resolve((get.result as { key: string }[]).map((x) => x.key));
            req.result.close();
          };
          get.onerror = () => reject(get.error);
        };
        req.onerror = () => reject(req.error);
      }),
  );
}

test("a forced terms re-sign while 3 actions wait pauses the queue; after re-signing all 3 are sent once with their keys", async ({ page, context, pb, unique }) => {
  const driver = await newDriver(page, pb, unique("seam-resign"), { firstName: "Sam", lastName: "Seam" }, { worker: true });
  await network(context, page, false);
  await quickLog(page, "Moves", 1);
  await quickLog(page, "Moves", 2);
  await quickLog(page, "Moves", 3);
  await expect(status(page)).toHaveText("Offline · 3 actions waiting");
  const keys = await queuedKeys(page);
  expect(keys).toHaveLength(3);

  const admin = await adminRequest();
  const force = await admin.post(`/api/admin/force-terms-resigning/${driver.id}`);
  expect(force.status(), await force.text()).toBe(200);
  await admin.dispose();

  const sent: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/api/driver/rebalance")) sent.push(r.headers()["idempotency-key"] ?? "");
  });
  await network(context, page, true);
  // the first send meets 403 terms_resign_required: the queue pauses (nothing refused) and the
  // session check shows the re-sign panel
  await expect(page.getByRole("heading", { name: "Updated Terms and Conditions" })).toBeVisible({ timeout: 30_000 });
  expect(await queuedKeys(page)).toEqual(keys);

  await page.getByRole("button", { name: "Review and Sign Terms" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("checkbox", { name: "I have read and understood the Terms and Conditions above" }).check();
  await dialog.getByRole("checkbox", { name: "I agree to be bound by these Terms and Conditions" }).check();
  await drawSignature(page, dialog.getByRole("img", { name: "Digital Signature" }));
  await dialog.getByRole("button", { name: "Accept Terms & Sign" }).click();
  await expect(page.getByRole("heading", { name: "Driver Home" })).toBeVisible({ timeout: 30_000 });
  await expect(status(page)).toHaveText("All sent", { timeout: 30_000 });

  // on the server: three movements, recorded under the three keys minted at the taps
  const moves = (await movements(page)).filter((m) => m.type === "rebalance");
  expect(moves.map((m) => m.quantity).sort()).toEqual([1, 2, 3]);
  const stored = await pb.collection("idempotency_keys").getFullList({ filter: pb.filter("user = {:id}", { id: driver.id }) });
  expect(stored.map((r) => r.key as string).filter((k) => keys.includes(k)).sort()).toEqual([...keys].sort());
  // every send used one of the original keys (the refused first try and the three after)
  expect(new Set(sent)).toEqual(new Set(keys));
});

test("a revoked driver sees '2 actions waiting' at / and sends them once after signing in there", async ({ page, context, pb, shot, unique }) => {
  const email = unique("seam-revoked");
  const driver = await newDriver(page, pb, email, { firstName: "Sam", lastName: "Seam" }, { worker: true });
  await network(context, page, false);
  await quickLog(page, "Recovers", 2);
  await quickLog(page, "Recovers", 5);
  await expect(status(page)).toHaveText("Offline · 2 actions waiting");
  const keys = await queuedKeys(page);
  // the session ends on the server while the actions wait
  const out = await page.request.post("/api/logout", { headers: { "Idempotency-Key": `logout-${driver.id}` } });
  expect(out.status()).toBe(200);
  await network(context, page, true);
  await page.goto("/").catch(async (e: unknown) => {
    if (!String(e).includes("interrupted by another navigation")) throw e;
  });
  const waiting = page.getByRole("status").filter({ hasText: "2 actions waiting on this phone. Sign in with the account that recorded them to send them." });
  await expect(waiting).toBeVisible({ timeout: 30_000 });
  // the notice is part of an accessible sign-in screen, at every width
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  await shot("seam-waiting-actions");
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no sideways scroll at ${width}px`).toBe(true);
  }
  await shot("seam-waiting-actions-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("driver-secret-1");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Driver Home" })).toBeVisible({ timeout: 30_000 });
  await expect(status(page)).toHaveText("All sent", { timeout: 30_000 });
  const recovers = (await movements(page)).filter((m) => m.type === "retrieves_repairs_dropoff");
  expect(recovers.map((m) => m.quantity).sort((a, b) => a - b)).toEqual([2, 5]);
  const stored = await pb.collection("idempotency_keys").getFullList({ filter: pb.filter("user = {:id}", { id: driver.id }) });
  expect(stored.map((r) => r.key as string).filter((k) => keys.includes(k)).sort()).toEqual([...keys].sort());
});

test("a second tab that found the first one sending sends once the first closes", async ({ page, context, pb, unique }) => {
  await newDriver(page, pb, unique("seam-tabs"), { firstName: "Sam", lastName: "Seam" }, { worker: true });
  // the first tab's send hangs (its answer never comes): it holds the sender's lock
  let hung = false;
  await page.route("**/api/driver/rebalance", () => {
    hung = true;
  });
  await page.getByRole("button", { name: "Log Moves" }).press("Enter");
  await page.getByLabel("Moves to log").fill("4");
  await page.getByLabel("Moves to log").press("Enter");
  await expect.poll(() => hung).toBe(true);
  const second = await context.newPage();
  await second.goto("/");
  await expect(second.getByRole("heading", { name: "Driver Home" })).toBeVisible({ timeout: 30_000 });
  await quickLog(second, "Recovers", 6);
  await expect(status(second)).toContainText("2 actions waiting");
  expect((await movements(second)).filter((m) => m.type === "retrieves_repairs_dropoff")).toHaveLength(0);
  await page.close();
  // the second tab takes the lock on its timer and sends both, in order, once
  await expect(status(second)).toHaveText("All sent", { timeout: 30_000 });
  const mine = await movements(second);
  expect(mine.filter((m) => m.type === "rebalance").map((m) => m.quantity)).toEqual([4]);
  expect(mine.filter((m) => m.type === "retrieves_repairs_dropoff").map((m) => m.quantity)).toEqual([6]);
});

test("a quick log tapped before the queue's sheet has loaded is recorded: the outbox runs from the shell", async ({ page, pb, unique }) => {
  await newDriver(page, pb, unique("seam-early"), { firstName: "Sam", lastName: "Seam" });
  // the field bar and the queue's sheet load after the first screen; held back here, as on a slow
  // phone network, a tap on the first screen must still find the outbox running (it was refused
  // "Not signed in" while the outbox was started by the sheet)
  const early = await page.context().newPage();
  await early.route(/\/assets\/(field-bar|queue-sheet)-[^/]+\.js$/, () => undefined);
  await early.goto("/");
  await expect(early.getByRole("heading", { name: "Driver Home" })).toBeVisible({ timeout: 30_000 });
  // taken, not refused (a refusal keeps the form open); sent by this tab, or queued here and sent
  // by the first tab when that one holds the sender's lock at the moment
  await quickLog(early, "Moves", 3);
  await expect
    .poll(async () => (await movements(early)).filter((m) => m.type === "rebalance").map((m) => m.quantity), { timeout: 30_000 })
    .toEqual([3]);
  await early.close();
});

test("a dropoff committed while the realtime link reconnects: the count on screen equals the server's within 2 s", async ({ page, pb, unique }) => {
  const driver = await newDriver(page, pb, unique("seam-realtime"), { firstName: "Sam", lastName: "Seam" }, { worker: true });
  let socket: { close: () => Promise<void> } | null = null;
  let drop = false;
  let links = 0;
  await page.routeWebSocket("**/ws", (ws) => {
    const server = ws.connectToServer();
    socket = { close: () => ws.close({ code: 4000, reason: "test" }) };
    // while drop is on, the server's notifications are lost (the link is going down)
    server.onMessage((m) => {
      if (String(m).includes("AUTH_OK")) links++; // the server accepted this link
      if (!drop) ws.send(m);
    });
  });
  await page.reload();
  await expect(page.getByRole("heading", { name: "Driver Home" })).toBeVisible({ timeout: 30_000 });
  // the link is open and accepted before anything commits (a change before that is not announced)
  await expect.poll(() => links, { timeout: 15_000 }).toBe(1);
  const card = page.getByRole("button", { name: /^Your Batteries/ });
  const shown = async () => Number(/Your Batteries\s*(\d+)/.exec(await card.innerText())?.[1] ?? NaN);
  const held = async () => {
    const s = (await (await page.request.get("/api/state")).json()) as { activeBatteryHolders: { user: { id: string } | null; quantity: number }[] };
    return s.activeBatteryHolders.filter((h) => h.user?.id === driver.id).reduce((n, h) => n + h.quantity, 0);
  };
  // the driver holds 5
  const pick = await page.request.post("/api/driver/pickup", { data: { quantity: 5, notes: "Y" }, headers: { "Idempotency-Key": `p-${driver.id}` } });
  expect(pick.status(), await pick.text()).toBe(200);
  await expect.poll(shown, { timeout: 10_000 }).toBe(5);

  // the link goes down; a dropoff of 2 commits (from another device) while it is down; the link reopens
  drop = true;
  await socket!.close();
  const off = await page.request.post("/api/driver/dropoff-batteries", {
    data: { goodBatteries: 2, deadBatteries: 0, notes: "dropped while the link was down" },
    headers: { "Idempotency-Key": `d-${driver.id}` },
  });
  expect(off.status(), await off.text()).toBe(200);
  drop = false;
  const reopened = Date.now();
  // the link reconnects after 3 s; the screen must follow the server within 2 s of that
  await expect.poll(shown, { timeout: 3_000 + 2_000 + 1_000, intervals: [100] }).toBe(await held());
  expect(Date.now() - reopened).toBeLessThan(3_000 + 2_000 + 1_000);
  expect(await shown()).toBe(3);

  // a dropoff tapped on this phone whose notification is lost while the link is open: the
  // answer's figures show, and the app refetches itself when no notification follows
  drop = true;
  const form = page.getByRole("form", { name: "Battery Dropoff" });
  await form.getByLabel("Good Batteries").fill("1");
  await form.getByLabel("Notes (Required)").fill("one more");
  await form.getByRole("button", { name: "Record Dropoff" }).press("Enter");
  await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).press("Enter");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect.poll(shown, { timeout: 2_000, intervals: [100] }).toBe(2);
  expect(await held()).toBe(2);
});

test.describe("in Tokyo", () => {
  test.use({ timezoneId: "Asia/Tokyo" });
  test("field-bar times are in the operation's time zone, not the phone's", async ({ page, context, pb, unique }) => {
    await newDriver(page, pb, unique("seam-tokyo"), { firstName: "Sam", lastName: "Seam" }, { worker: true });
    const info = (await (await page.request.get("/api/auth/user")).json()) as { timeZone?: string };
    const zone = info.timeZone || "UTC";
    await network(context, page, false);
    const before = Date.now();
    await quickLog(page, "Moves", 1);
    await page.getByRole("button", { name: /Show$/ }).click();
    const tapped = page.getByRole("dialog").getByText(/^Tapped /);
    await expect(tapped).toBeVisible();
    const fmt = (ms: number, timeZone: string) =>
      new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", minute: "2-digit", hour12: true }).format(ms).replace(/\s/g, " ");
    const text = (await tapped.innerText()).replace(/^Tapped /, "").replace(/\s/g, " ");
    // the tap's minute (or the next, if the minute turned) in the operation's zone
    expect([fmt(before, zone), fmt(before + 60_000, zone)]).toContain(text);
    if (zone !== "Asia/Tokyo") expect(text).not.toBe(fmt(before, "Asia/Tokyo"));
    await page.keyboard.press("Escape");
    await network(context, page, true);
  });
});
