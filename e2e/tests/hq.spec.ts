// Head office's screens (issue 45 items 3 and 5, DESIGN.md §15) served by `swapbay hq serve`
// from the built binary (ui/hq.html).
// 1. In a small run-hq world (e2e/hq-world.ts: two demo cities replicating to directories,
//    each issuing head office's token, HQ following both): an HQ admin signs in at /, sees both
//    cities on the overview, finds a pack of the second city by serial and opens the link to
//    its city's pack page, recalls its lot and sees "done" for every city.
// 2. Every HQ screen, on answers shaped as docs/hq.md's contract says (page.route fixtures, so
//    a copy flagged behind, a city that could not be read, a viewer's screens are all shown):
//    axe at 390 and 1280 px, nothing wider than 360, 390 or 1280 px, and photographed
//    (screenshots/desktop-hq-*.png).
// 3. A superuser's raw PATCH of a city through head office's record API (its /_/ door) is on the
//    Cities page's Audit List for an hq_admin (hooks/hq.go, GET /api/hq/audit).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Page, Route } from "@playwright/test";
import { expectNoAxeViolations, tabTo } from "../a11y";
import { press, typeInto } from "../keyboard";
import { BINARY, SCREENSHOTS } from "../env";
import { CITY_MASTER, HQ_ADMIN, type HqWorld, startHqWorld } from "../hq-world";
import { expect, test } from "../fixtures";

test.describe("in a run-hq world", () => {
  let world: HqWorld | undefined;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    world = await startHqWorld();
    console.log(`hq-world: two cities seeded in ${world.seedMs} ms`);
  });
  test.afterAll(() => world?.stop());

  test("an HQ admin signs in, sees both cities, finds a pack of city 2 and opens it, recalls its lot and sees it done everywhere", async ({ browser }, testInfo) => {
    test.setTimeout(180_000);
    const w = world!;
    const [paris, berlin] = w.cities as [HqWorld["cities"][number], HqWorld["cities"][number]];

    // a pack of Berlin's, with a lot, from Berlin's own API
    const login = await fetch(`${berlin.url}/api/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(CITY_MASTER) });
    const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const list = (await (await fetch(`${berlin.url}/api/packs?perPage=200`, { headers: { Cookie: cookie } })).json()) as { packs: { serial: string; lot: string; state: string }[] };
    // a pack in use whose lot is not recalled yet (the demo data has a recalled lot)
    const pack = list.packs.find((p) => p.lot !== "" && !["quarantined", "retired", "recycled", "in_transit"].includes(p.state));
    expect(pack, "a demo pack in use with a lot in Berlin").toBeTruthy();

    const ctx = await browser.newContext({ ...testInfo.project.use, baseURL: w.hqURL });
    const page = await ctx.newPage();
    await test.step("sign in at /", async () => {
      await page.goto("/");
      await page.getByLabel("Email").fill(HQ_ADMIN.email);
      await page.getByLabel("Password").fill("not-the-password");
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page.getByRole("alert")).toHaveText("Invalid email or password.");
      await page.getByLabel("Password").fill(HQ_ADMIN.password);
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    });
    await test.step("both cities on the overview", async () => {
      for (const c of [paris, berlin]) await expect(page.getByRole("region", { name: c.name })).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole("region", { name: berlin.name }).getByText("Ready", { exact: true })).toBeVisible();
      await page.screenshot({ path: path.join(SCREENSHOTS, "hq-world-overview-1280.png"), fullPage: true });
    });
    await test.step("the pack of Berlin found by serial, and its link opens Berlin's pack page", async () => {
      await page.getByRole("link", { name: "Pack search" }).click();
      await page.getByLabel("Serial or label URL").fill(pack!.serial);
      await page.getByRole("button", { name: "Search" }).click();
      const result = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: pack!.serial }) });
      await expect(result).toContainText(berlin.name);
      const link = result.getByRole("link", { name: `Open in ${berlin.name}` });
      await expect(link).toHaveAttribute("href", `${berlin.url}/packs/${pack!.serial}`);
      // a new tab on Berlin's own server (a guest there is taken to its sign-in, then the page)
      const asked = ctx.waitForEvent("request", (r) => r.isNavigationRequest() && r.url().startsWith(berlin.url));
      const [opened] = await Promise.all([ctx.waitForEvent("page"), link.click()]);
      expect((await asked).url()).toBe(`${berlin.url}/packs/${pack!.serial}`);
      await opened.close();
    });
    await test.step("its lot recalled from head office: done in every city", async () => {
      await page.getByRole("link", { name: "Recalls" }).click();
      await page.getByRole("button", { name: "New recall" }).click();
      const dialog = page.getByRole("dialog", { name: "New recall" });
      await dialog.getByLabel("Value").fill(pack!.lot);
      await dialog.getByLabel("Reason").fill("e2e: swelling cells in this lot");
      await dialog.getByRole("button", { name: "Preview" }).click();
      const preview = dialog.getByRole("region", { name: "Preview" });
      await expect(preview).toContainText(berlin.name);
      await preview.getByRole("button", { name: /^Recall/ }).click();
      await expect(page.getByRole("heading", { level: 1, name: `Recall of lot ${pack!.lot}` })).toBeVisible();
      // the cities quarantine, their replicas reach HQ's copies, the page asks every 5 s
      await expect(page.getByText("Done: every matching pack in every city is quarantined.")).toBeVisible({ timeout: 90_000 });
      const table = page.getByRole("region", { name: "The recall in each city" });
      for (const c of [paris, berlin]) await expect(table.getByRole("row").filter({ hasText: c.name })).toContainText("done");
      await page.screenshot({ path: path.join(SCREENSHOTS, "hq-world-recall-done-1280.png"), fullPage: true });
    });
    await ctx.close();
  });

  test("with the keyboard only: sign in, find a pack of city 1 by serial and reach its link, preview a recall and cancel it", async ({ browser }, testInfo) => {
    test.setTimeout(120_000);
    const w = world!;
    const paris = w.cities[0]!;
    const ctx = await browser.newContext({ ...testInfo.project.use, baseURL: w.hqURL });
    const page = await ctx.newPage();
    await page.goto("/");
    await typeInto(page, page.getByLabel("Email"), HQ_ADMIN.email);
    await typeInto(page, page.getByLabel("Password"), HQ_ADMIN.password);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

    // Pack search from the navigation, the serial typed and sent with Enter, Tab to the city's link
    await tabTo(page, page.getByRole("link", { name: "Pack search" }));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Pack search" })).toBeVisible();
    const serial = `${paris.prefix}-000001`;
    await typeInto(page, page.getByLabel("Serial or label URL"), serial);
    await page.keyboard.press("Enter");
    const result = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: serial }) });
    await expect(result).toContainText(paris.name);
    await tabTo(page, result.getByRole("link", { name: `Open in ${paris.name}` }));

    // a recall's preview by keyboard: New recall, the value, the reason (a text area: Tab on to
    // Preview), Enter; Escape closes the dialog without recalling and focus is back on New recall
    await tabTo(page, page.getByRole("link", { name: "Recalls" }), { back: true });
    await page.keyboard.press("Enter");
    const open = page.getByRole("button", { name: "New recall" });
    await tabTo(page, open);
    await press(page, "Enter");
    const dialog = page.getByRole("dialog", { name: "New recall" });
    await expect(dialog).toBeVisible();
    await typeInto(page, dialog.getByLabel("Value"), "L-NO-SUCH-LOT");
    await typeInto(page, dialog.getByLabel("Reason"), "e2e: keyboard preview only");
    await tabTo(page, dialog.getByRole("button", { name: "Preview" }));
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("region", { name: "Preview" })).toContainText("Nothing to recall: no pack in any city is left to quarantine.");
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(open).toBeFocused();
    const recalls = (await (await page.request.get("/api/hq/recalls")).json()) as { value: string }[];
    expect(recalls.map((r) => r.value)).not.toContain("L-NO-SUCH-LOT");
    await ctx.close();
  });
});

// ---- every screen on fixtures shaped as the contract says ----

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const stock = (n: number) => ({ ready: 14 * n, waiting: 3 * n, charging: 5 * n, field: 22 * n, quarantined: n, inTransit: n > 1 ? 2 : 0 });
const days = (scale: number) =>
  Array.from({ length: 30 }, (_, i) => ({ day: new Date(Date.UTC(2026, 9, 30 + i)).toISOString().slice(0, 10), swaps: Math.round(scale * (20 + 10 * Math.sin(i / 3) + (i % 7))) }));
const weeks = (cents: number) => Array.from({ length: 8 }, (_, i) => ({ weekStart: new Date(Date.UTC(2026, 9, 5 + 7 * i)).toISOString().slice(0, 10), cents: cents + 1234 * i }));
const copy = (state: string, lagSeconds = 0) => ({ state, lagSeconds, replicaAgeSeconds: lagSeconds, restores: 0, lastAppliedAt: "2026-11-28T09:58:00Z" });

const CITIES = [
  { id: "par", name: "Paris", timeZone: "Europe/Paris", currency: "EUR", replicaUrl: "s3://swapbay-paris/db?endpoint=https%3A%2F%2Fs3.example&region=eu-west-3", accessKeyIdSet: true, secretAccessKeySet: true, address: "https://paris.swapbay.example", tokenSet: true, copy: copy("following", 1) },
  { id: "ber", name: "Berlin", timeZone: "Europe/Berlin", currency: "EUR", replicaUrl: "file:///srv/replicas/berlin", accessKeyIdSet: false, secretAccessKeySet: false, address: "https://berlin.swapbay.example", tokenSet: true, copy: { ...copy("behind", 420), warning: "The copy is 7 minutes behind the replica." } },
  { id: "lon", name: "London", timeZone: "Europe/London", currency: "GBP", replicaUrl: "file:///srv/replicas/london", accessKeyIdSet: false, secretAccessKeySet: false, address: "https://london.swapbay.example", tokenSet: false, copy: { ...copy("failed"), error: "The replica directory does not exist." } },
];
const OVERVIEW = {
  asOf: "2026-11-28T10:00:00Z",
  cities: [
    { ...CITIES[0], copy: { state: "following", lagSeconds: 1, behind: false }, ok: true, stock: stock(2), swapsPerDay: days(2), payPerWeek: weeks(182_050), recalls: { count: 2, packsQuarantined: 9 }, missingPacks: 1 },
    { ...CITIES[1], copy: { state: "behind", lagSeconds: 420, behind: true }, ok: true, stock: stock(1), swapsPerDay: days(1), payPerWeek: weeks(90_400), recalls: { count: 0, packsQuarantined: 0 }, missingPacks: 0 },
    { ...CITIES[2], copy: { state: "failed", lagSeconds: 0, behind: true }, ok: false, error: "the replica directory does not exist" },
  ],
  totals: {
    stock: stock(3),
    swapsPerDay: days(3),
    payByCurrency: [
      { currency: "EUR", weeks: weeks(272_450) },
      { currency: "GBP", weeks: weeks(0) },
    ],
  },
};
const HISTORY = {
  cities: CITIES.slice(0, 2).map((c, n) => ({ id: c.id, name: c.name, currency: c.currency, weeks: weeks(100_000 * (n + 1)).map((w, i) => ({ weekStart: w.weekStart, swaps: 140 + 9 * i, payCents: w.cents })) })),
};
const PACKS = {
  packs: [
    { cityId: "ber", cityName: "Berlin", serial: "BER-000042", state: "ready", place: "Ready", lastSeenAt: "2026-11-28T08:12:00Z", model: "SB-48V-20", lot: "L-2026-07", manufacturer: "Voltcell", url: "https://berlin.swapbay.example/packs/BER-000042" },
    { cityId: "ber", cityName: "Berlin", serial: "BER-000420", state: "in_field", place: "With Lena Schmidt", lastSeenAt: "2026-11-27T17:40:00Z", model: "SB-48V-20", lot: "L-2026-07", manufacturer: "Voltcell", url: "https://berlin.swapbay.example/packs/BER-000420" },
  ],
  cities: [
    { id: "par", name: "Paris", ok: true, error: "" },
    { id: "ber", name: "Berlin", ok: true, error: "" },
    { id: "lon", name: "London", ok: false, error: "the replica directory does not exist" },
  ],
};
const TRANSIT = {
  transfers: [{ fromCityId: "par", fromCity: "Paris", ref: "k3m9x0a1b2c3d4e", toCity: "Berlin", toCityId: "ber", sentAt: "2026-11-27T15:00:00Z", serials: ["PAR-000101", "PAR-000102", "PAR-000103"], received: ["PAR-000101"], pending: ["PAR-000102", "PAR-000103"] }],
  // Paris deleted an earlier send after Berlin had received it
  inTwoCities: [
    { serial: "PAR-000088", cities: [{ cityId: "ber", cityName: "Berlin", state: "in_service" }, { cityId: "par", cityName: "Paris", state: "in_service" }], receivedByCityId: "ber", receivedBy: "Berlin", fromCity: "Paris", ref: "a7d2k9m4p1q8r5s" },
  ],
};
const RECALL = {
  id: "rc1",
  by: "lot",
  value: "L-2026-07",
  reason: "Swelling cells reported by the manufacturer",
  at: "2026-11-28T09:00:00Z",
  actor: { name: "Head Office" },
  done: false,
  cities: [
    { id: "par", name: "Paris", send: "sent", attempts: 1, error: "", cityRecallId: "x1", matching: 4, quarantined: 4, done: true },
    { id: "ber", name: "Berlin", send: "sent", attempts: 1, error: "", cityRecallId: "x2", matching: 6, quarantined: 2, done: false },
    { id: "lon", name: "London", send: "failed", attempts: 1, error: "The city refused head office's token: issue a new one on its System page.", cityRecallId: "", matching: 0, quarantined: 0, done: false },
  ],
};
const AUDIT = {
  entries: [
    { id: "au2", at: "2026-11-28T09:40:00Z", actor: "root@swapbay.local", actorKind: "_superusers", action: "update", collection: "cities", recordId: "lon", fields: ["address", "name"] },
    { id: "au1", at: "2026-11-27T18:05:00Z", actor: "root@swapbay.local", actorKind: "_superusers", action: "delete", collection: "hq_sessions", recordId: "k2j4h6g8f0d1s3a", fields: [] },
  ],
};
const PREVIEW = { total: 10, alreadyQuarantined: 1, cities: [{ id: "par", name: "Paris", count: 4, alreadyQuarantined: 0, ok: true }, { id: "ber", name: "Berlin", count: 6, alreadyQuarantined: 1, ok: true }, { id: "lon", name: "London", count: 0, alreadyQuarantined: 0, ok: false, error: "the replica directory does not exist" }] };

/** fixtures answers every /api/hq/ call of the screens as the contract shapes them, signed in as role. */
async function fixtures(page: Page, role: "hq_admin" | "hq_viewer") {
  const user = { id: "u1", email: "hq@swapbay.local", name: role === "hq_admin" ? "Head Office" : "Vera Viewer", role };
  await page.route(/\/api\/hq\//, (route: Route) => {
    const url = new URL(route.request().url());
    const answers: Record<string, unknown> = {
      "/api/hq/me": { user },
      "/api/hq/cities": CITIES,
      "/api/hq/overview": OVERVIEW,
      "/api/hq/history": HISTORY,
      "/api/hq/packs": PACKS,
      "/api/hq/transit": TRANSIT,
      "/api/hq/recalls": [RECALL, { ...RECALL, id: "rc0", by: "model", value: "SB-36V-10", done: true, at: "2026-11-20T09:00:00Z", cities: RECALL.cities.slice(0, 2).map((c) => ({ ...c, quarantined: c.matching, done: true })) }],
      "/api/hq/recalls/rc1": RECALL,
      "/api/hq/recall-preview": PREVIEW,
      "/api/hq/audit": AUDIT,
    };
    const body = answers[url.pathname];
    return body === undefined ? route.fulfill({ status: 404, json: { status: 404, message: "Not found", data: {} } }) : route.fulfill({ json: body });
  });
}

test.describe("every screen", () => {
  let server: ChildProcess | undefined;
  let dir = "";
  let hqURL = "";
  test.beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "swapbay-hq-ui-"));
    execFileSync(BINARY, ["hq", "user", "create", `--dir=${dir}`, `--email=${HQ_ADMIN.email}`, `--password=${HQ_ADMIN.password}`, "--role=hq_admin", "--name=Head Office"], { stdio: "ignore" });
    const port = Number(process.env.HQ_UI_PORT ?? 0) || (await freePort());
    hqURL = `http://127.0.0.1:${port}`;
    server = spawn(BINARY, ["hq", "serve", `--dir=${dir}`, `--http=127.0.0.1:${port}`], { stdio: "ignore" });
    await expect.poll(async () => (await fetch(`${hqURL}/api/health`).catch(() => null))?.status, { timeout: 30_000 }).toBe(200);
  });
  test.afterAll(() => {
    server?.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  });

  test("head office serves hq.html at / and at deep links; unknown /api/ paths stay a JSON 404", async () => {
    for (const p of ["/", "/packs?q=BER", "/recalls/abc", "/sw.js"]) {
      const res = await fetch(hqURL + p);
      expect(res.status, p).toBe(200);
      expect(await res.text(), p).toContain("<title>SwapBay Head Office</title>");
    }
    const api = await fetch(`${hqURL}/api/hq/nothing-here`);
    expect(api.status).toBe(404);
    expect(api.headers.get("content-type")).toContain("application/json");
  });

  const SCREENS = [
    { path: "/", h1: "Overview", name: "overview" },
    { path: "/history", h1: "History", name: "history" },
    { path: "/packs?q=BER-0004", h1: "Pack search", name: "packs" },
    { path: "/recalls", h1: "Recalls", name: "recalls" },
    { path: "/recalls/rc1", h1: "Recall of lot L-2026-07", name: "recall" },
    { path: "/transit", h1: "In transit", name: "transit", h2: "Counted in two cities" },
    { path: "/cities", h1: "Cities", name: "cities" },
  ];

  test("every screen at 360, 390 and 1280 px: nothing wider than the screen, the behind banner, axe, a photograph", async ({ browser }, testInfo) => {
    test.setTimeout(240_000);
    const ctx = await browser.newContext({ ...testInfo.project.use, baseURL: hqURL });
    const page = await ctx.newPage();
    await fixtures(page, "hq_admin");
    // 360 px: the layout alone (as screens.spec does for the city's screens)
    await page.setViewportSize({ width: 360, height: 740 });
    for (const s of SCREENS) {
      await page.goto(s.path);
      await expect(page.getByRole("heading", { level: 1, name: s.h1 })).toBeVisible();
      await expect(page.getByText(/London's copy failed/)).toBeVisible();
      // measured against the width set: a phone browser widens innerWidth to fit what overflows
      expect.soft(await page.evaluate(() => document.documentElement.scrollWidth), `HQ ${s.name} at 360px`).toBeLessThanOrEqual(360);
      await page.screenshot({ path: path.join(SCREENSHOTS, `hq-${s.name}-360.png`), fullPage: true });
    }
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      for (const s of SCREENS) {
        await page.goto(s.path);
        await expect(page.getByRole("heading", { level: 1, name: s.h1 })).toBeVisible();
        await expect(page.getByText("Berlin's data is 7 minutes behind.", { exact: false })).toBeVisible();
        await expect(page.getByText(/London's copy failed/)).toBeVisible();
        if (s.h2) await expect(page.getByRole("heading", { level: 2, name: s.h2 })).toBeVisible();
        expect.soft(await page.evaluate(() => document.documentElement.scrollWidth), `HQ ${s.name} at ${width}px`).toBeLessThanOrEqual(width);
        await expectNoAxeViolations(page, `HQ ${s.name} at ${width}px`);
        await page.screenshot({ path: path.join(SCREENSHOTS, `hq-${s.name}-${width}.png`), fullPage: true });
      }
      // the dialogs
      await page.goto("/cities");
      await page.getByRole("button", { name: "Edit Paris" }).click();
      const edit = page.getByRole("dialog", { name: "Edit Paris" });
      await expect(edit.getByLabel("Access Key ID")).toHaveAttribute("placeholder", "•••• set");
      await expectNoAxeViolations(page, `HQ city form at ${width}px`);
      await page.screenshot({ path: path.join(SCREENSHOTS, `hq-city-form-${width}.png`) });
      await edit.getByRole("button", { name: "Cancel" }).click();
      await page.getByRole("button", { name: "Delete Berlin" }).click();
      await expect(page.getByRole("alertdialog", { name: "Delete Berlin?" })).toBeVisible();
      await expectNoAxeViolations(page, `HQ city delete at ${width}px`);
      await page.getByRole("button", { name: "Cancel" }).click();
      await page.goto("/recalls");
      await page.getByRole("button", { name: "New recall" }).click();
      const dialog = page.getByRole("dialog", { name: "New recall" });
      await dialog.getByRole("button", { name: "Preview" }).click();
      await expect(dialog.getByText("Choose the lot, model or manufacturer to recall")).toBeVisible();
      await dialog.getByLabel("Value").fill("L-2026-07");
      await dialog.getByLabel("Reason").fill("Swelling cells");
      await dialog.getByRole("button", { name: "Preview" }).click();
      await expect(dialog.getByRole("region", { name: "Preview" })).toContainText("10 packs to quarantine in all cities, 1 already quarantined.");
      await expect(dialog.getByRole("button", { name: "Recall 10 packs" })).toBeVisible();
      await expectNoAxeViolations(page, `HQ new recall preview at ${width}px`);
      await page.screenshot({ path: path.join(SCREENSHOTS, `hq-recall-preview-${width}.png`) });
    }
    await ctx.close();
  });

  test("a superuser's raw PATCH of a city through the record API is on the Cities page's Audit List", async ({ browser }, testInfo) => {
    // head office's superuser, made as a person makes one (`swapbay hq superuser upsert`)
    const root = { email: "root@swapbay.local", password: HQ_ADMIN.password };
    execFileSync(BINARY, ["hq", "superuser", "upsert", `--dir=${dir}`, `--email=${root.email}`, `--password=${root.password}`], { stdio: "ignore" });
    const ctx = await browser.newContext({ ...testInfo.project.use, baseURL: hqURL });
    const page = await ctx.newPage();
    // seeded through the API: the hq_admin's session cookie and a city (not on the list: HQ's own route)
    const login = await page.request.post("/api/hq/auth/login", { data: { email: HQ_ADMIN.email, password: HQ_ADMIN.password } });
    expect(login.status()).toBe(200);
    const added = await page.request.post("/api/hq/cities", {
      headers: { "Idempotency-Key": crypto.randomUUID() },
      data: { name: "Madrid", timeZone: "Europe/Madrid", currency: "EUR", replicaUrl: "file:///srv/replicas/madrid", address: "https://madrid.swapbay.example", token: "e2e-token" },
    });
    expect(added.status()).toBe(200);
    const city = (await added.json()) as { id: string };
    // the superuser's raw write, as /_/ sends it
    const su = await fetch(`${hqURL}/api/collections/_superusers/auth-with-password`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ identity: root.email, password: root.password }),
    });
    expect(su.status).toBe(200);
    const patched = await fetch(`${hqURL}/api/collections/cities/records/${city.id}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json", Authorization: ((await su.json()) as { token: string }).token },
      body: JSON.stringify({ name: "Madrid Centro" }),
    });
    expect(patched.status).toBe(200);

    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto("/cities");
      await expect(page.getByRole("heading", { name: "Madrid Centro" })).toBeVisible();
      const audit = page.getByRole("region", { name: "Audit List" });
      const row = audit.getByRole("listitem").filter({ hasText: `cities ${city.id}` });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText("Changed");
      await expect(row).toContainText(`${root.email} (superuser)`);
      await expect(row.getByRole("definition").last()).toHaveText("name");
      expect.soft(await page.evaluate(() => document.documentElement.scrollWidth), `HQ audit list at ${width}px`).toBeLessThanOrEqual(width);
      await expectNoAxeViolations(page, `HQ cities with its audit list at ${width}px`);
      await audit.scrollIntoViewIfNeeded();
      await audit.screenshot({ path: path.join(SCREENSHOTS, `hq-audit-list-${width}.png`) });
    }
    await ctx.close();
  });

  test("a viewer reads: no edit, delete or recall buttons, no audit list; the sign-in screen passes axe", async ({ browser }, testInfo) => {
    const ctx = await browser.newContext({ ...testInfo.project.use, baseURL: hqURL });
    const page = await ctx.newPage();
    await fixtures(page, "hq_viewer");
    await page.goto("/cities");
    await expect(page.getByRole("heading", { name: "Paris" })).toBeVisible();
    await expect(page.getByRole("button", { name: /Add city|Edit|Delete/ })).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Audit List" })).toHaveCount(0);
    await page.goto("/recalls");
    await expect(page.getByRole("link", { name: "Lot L-2026-07" })).toBeVisible();
    await expect(page.getByRole("button", { name: "New recall" })).toHaveCount(0);
    await page.unrouteAll();
    await page.route(/\/api\/hq\/me$/, (r) => r.fulfill({ status: 401, json: { status: 401, message: "The request requires valid record authorization token.", data: {} } }));
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1, name: "SwapBay Head Office" })).toBeVisible();
      await expectNoAxeViolations(page, `HQ sign-in at ${width}px`);
      await page.screenshot({ path: path.join(SCREENSHOTS, `hq-sign-in-${width}.png`) });
    }
    await ctx.close();
  });
});
