// Delivery of the UI (DESIGN.md §10): the sign-in screen downloads no signed-in or admin code,
// a signed-in first screen starts its chunks and calls from the boot script, assets come
// precompressed and immutable, index.html revalidates, a missing asset is a 404, and a JSON
// poll that finds nothing changed is a 304 (lib/webui ETagJSON).
import { ADMIN } from "../env";
import { expect, signIn, test } from "../fixtures";

test("the sign-in screen loads no admin, dashboard, editor, worker or outbox chunk, at / and at /auth", async ({ page }) => {
  for (const path of ["/", "/auth"]) {
    const scripts: string[] = [];
    const listen = (req: import("@playwright/test").Request) => {
      if (req.resourceType() === "script") scripts.push(new URL(req.url()).pathname);
    };
    page.on("request", listen);
    await page.goto(path);
    await expect(page.getByRole("button", { name: /sign in/i }).first()).toBeVisible();
    await page.waitForLoadState("networkidle");
    page.off("request", listen);
    expect(scripts.length).toBeGreaterThan(0);
    // the service worker's registration (pwa), the outbox and the offline read cache belong to
    // the signed-in shell (issue 27: they stay out of the first screen's budget)
    const forbidden = scripts.filter((s) =>
      /\/assets\/(admin-|home|liaison|signed-in|app-shell|terms-editor|tiptap|photo|camera|earnings|charging|custody|pwa|outbox|use-outbox|queue-sheet|offline-cache|field-bar)/i.test(s),
    );
    expect(forbidden, `scripts loaded by ${path}: ${scripts.join(", ")}`).toEqual([]);
  }
});

test("an admin's first screen preloads its dashboard from the boot script, each file and call once", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  const requested = new Map<string, number>();
  page.on("request", (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith("/assets/") || url.pathname.startsWith("/api/")) {
      const key = url.pathname + url.search;
      requested.set(key, (requested.get(key) ?? 0) + 1);
    }
  });
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Active Charging Sessions" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  // the boot script ran (the CSP allowed it) and preloaded the admin dashboard's chunk
  const preloaded = await page.locator('link[rel="modulepreload"][data-boot]').evaluateAll((links) => links.map((l) => l.getAttribute("href") ?? ""));
  expect(preloaded.some((h) => /\/assets\/home-admin-/.test(h)), preloaded.join(", ")).toBe(true);
  // its calls were made once, by the boot script, and the dashboard took their answers; the
  // weekly activity is its summary (a card asks for its own activities when opened)
  for (const call of ["/api/admin/attention", "/api/admin/charging-sessions", "/api/admin/recent-activity", "/api/admin/weekly-activity?activities=none", "/api/state"]) {
    expect(requested.get(call), call).toBe(1);
  }
  const weekly = [...requested.keys()].filter((k) => k.startsWith("/api/admin/weekly-activity"));
  expect(weekly, "the full week's activity lists are not asked for").toEqual(["/api/admin/weekly-activity?activities=none"]);
  const twice = [...requested].filter(([path, n]) => path.startsWith("/assets/") && n > 1);
  expect(twice, "assets requested more than once").toEqual([]);
  expect(errors.filter((e) => /Content Security Policy|modulepreload/i.test(e))).toEqual([]);
});

test("assets are precompressed and immutable; index.html revalidates; missing assets are 404", async ({ request }) => {
  const index = await request.get("/", { headers: { "Accept-Encoding": "br, gzip" } });
  expect(index.status()).toBe(200);
  expect(index.headers()["cache-control"]).toBe("no-cache");
  expect(index.headers()["etag"]).toBeTruthy();
  const again = await request.get("/", { headers: { "If-None-Match": index.headers()["etag"] } });
  expect(again.status()).toBe(304);

  const html = await (await request.get("/")).text();
  const entry = html.match(/\/assets\/[^"]+\.js/)?.[0];
  expect(entry, html).toBeTruthy();
  // a module script is requested with an Origin header; same-origin, it needs no CORS answer
  const origin = new URL(index.url()).origin;
  const asset = await request.get(entry!, { headers: { "Accept-Encoding": "br, gzip", Origin: origin } });
  expect(asset.status()).toBe(200);
  expect(asset.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(asset.headers()["content-encoding"]).toBe("br");
  expect(asset.headers()["vary"]).toBe("Accept-Encoding");
  expect(asset.headers()["access-control-allow-origin"]).toBeUndefined();
  expect(asset.headers()["content-security-policy"]).toBeUndefined();

  const missing = await request.get("/assets/does-not-exist-123.js");
  expect(missing.status()).toBe(404);
  expect(await missing.text()).not.toContain("<!doctype");
});

test("a poll that finds nothing changed is a 304 without a body, and the dashboard keeps its data", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Weekly Driver Activity" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  // what came over the wire (Playwright and Network.responseReceived report the cached 200
  // the page is given; the raw status is in responseReceivedExtraInfo). CDP gives a request's
  // ExtraInfo events in no set order with its requestWillBeSent (the network service and the
  // browser report them apart; under load 3 of 26 came first): both are kept by requestId and
  // joined once they are all in, never filtered on arrival, which lost a status now and then.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  // Only this test's own fetches count (they carry X-Probe): the dashboard may refetch Recent
  // Activity itself meanwhile (its 60 s poll, or a realtime event from a job of the server),
  // a request this test did not make (a suspected cause of its failures in full runs).
  const paths = new Map<string, string>();
  const statuses = new Map<string, number>();
  cdp.on("Network.requestWillBeSent", (e) => {
    if (e.request.headers["X-Probe"]) paths.set(e.requestId, new URL(e.request.url).pathname);
  });
  cdp.on("Network.responseReceivedExtraInfo", (e) => statuses.set(e.requestId, e.statusCode));
  const wire = () => [...paths].filter(([, path]) => path === "/api/admin/recent-activity").map(([id]) => statuses.get(id));
  // what the 60 s poll does: the browser asks with the answer's tag and reuses its copy. The
  // first fetch brings the browser's copy up to date (a 304, or a 200 if something happened
  // since the dashboard loaded it); the next two find nothing changed.
  const answers = await page.evaluate(async () => {
    const probe = { headers: { "X-Probe": "1" } };
    const one = await fetch("/api/admin/recent-activity", probe).then((r) => r.json());
    const two = await fetch("/api/admin/recent-activity", probe);
    const three = await fetch("/api/admin/recent-activity", probe);
    const same = JSON.stringify(one) === JSON.stringify(await two.json()) && JSON.stringify(one) === JSON.stringify(await three.json());
    return { same, status: [two.status, three.status], entries: one.length };
  });
  expect(answers.same && answers.status.join() === "200,200" && answers.entries > 0, JSON.stringify(answers)).toBe(true);
  await expect.poll(() => wire().filter((status) => status !== undefined).length).toBe(3);
  expect(wire().slice(1)).toEqual([304, 304]);

  // the server's side: the tag of the current answer gets a bodiless 304, any other a 200
  const fresh = await page.request.get("/api/admin/recent-activity");
  const etag = fresh.headers()["etag"];
  expect(fresh.headers()["cache-control"]).toBe("private, no-cache");
  const same = await page.request.get("/api/admin/recent-activity", { headers: { "If-None-Match": etag } });
  expect(same.status()).toBe(304);
  expect((await same.body()).length).toBe(0);
  const other = await page.request.get("/api/admin/recent-activity", { headers: { "If-None-Match": 'W/"old"' } });
  expect(other.status()).toBe(200);
});
