// First-screen speed on a phone network (issue "Fast where it is used", DESIGN.md §10), for
// `make bench`: Debian's Chromium through Playwright, CDP network emulation at 1.6 Mbps down,
// 750 kbps up, 150 ms RTT, cold cache. For a guest (the sign-in screen, at / and at /auth), a driver and an admin
// (their home screens, signed in through /api/login) it measures Largest Contentful Paint, the
// JavaScript bytes over the wire (encoded, as sent) and, on a repeat visit in the same browser
// context, how many scripts still came from the network. For the driver it also opens the app
// a third time with the network off (DESIGN.md §12): the bytes that still came from the
// network (expected 0: the service worker answers) and the time to the home's figures.
// Prints one JSON object.
//
// Usage: node scripts/lcp.mjs BASE_URL DRIVER_EMAIL ADMIN_EMAIL PASSWORD
import { chromium } from "@playwright/test";

const [base, driverEmail, adminEmail, password] = process.argv.slice(2);
if (!base) throw new Error("usage: node scripts/lcp.mjs BASE_URL DRIVER_EMAIL ADMIN_EMAIL PASSWORD");

const NETWORK = { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8), uploadThroughput: (750e3 / 8) };

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});

async function measure(role, email, path = email ? "/" : "/auth") {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  if (email) {
    const res = await context.request.post(`${base}/api/login`, { data: { email, password } });
    if (!res.ok()) throw new Error(`${role} login: ${res.status()} ${await res.text()}`);
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", NETWORK);
  // A script counts as loaded from the network unless Chromium served it from its cache
  // (requestServedFromCache, or a response marked fromDiskCache); a 304 revalidation counts.
  const scripts = new Map(); // requestId → url
  const cached = new Set();
  let jsBytes = 0;
  let jsFromNetwork = 0;
  cdp.on("Network.requestServedFromCache", (ev) => cached.add(ev.requestId));
  cdp.on("Network.responseReceived", (ev) => {
    if (ev.type === "Script") {
      scripts.set(ev.requestId, ev.response.url);
      if (ev.response.fromDiskCache || ev.response.fromPrefetchCache || ev.response.fromServiceWorker) cached.add(ev.requestId);
    }
  });
  cdp.on("Network.loadingFinished", (ev) => {
    if (!scripts.has(ev.requestId) || cached.has(ev.requestId)) return;
    jsBytes += ev.encodedDataLength;
    jsFromNetwork++;
  });
  await page.addInitScript(() => {
    window.__lcp = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__lcp = e.startTime;
    }).observe({ type: "largest-contentful-paint", buffered: true });
  });
  await page.goto(base + path, { waitUntil: "networkidle", timeout: 120_000 });
  await page.waitForTimeout(500);
  const lcp = await page.evaluate(() => window.__lcp);
  const heading = await page.locator("h1, h2").first().textContent().catch(() => "");
  const first = { lcpMs: Math.round(lcp), jsKB: +(jsBytes / 1024).toFixed(1), scripts: jsFromNetwork, heading: heading?.trim() };

  // repeat visit: same context (warm HTTP cache), new navigation
  jsBytes = 0;
  jsFromNetwork = 0;
  scripts.clear();
  cached.clear();
  await page.goto(base + path, { waitUntil: "networkidle", timeout: 120_000 });
  await page.waitForTimeout(300);
  const repeat = { jsFromNetwork, jsKB: +(jsBytes / 1024).toFixed(1) };
  // a failed offline visit is reported, not fatal: the first-screen figures above still count
  const offline =
    role === "driver"
      ? await offlineVisit(page, cdp, context).catch((e) => {
          console.error(`offline visit: ${e.message.split("\n")[0]}`);
          return { bytesFromNetwork: -1, figuresMs: -1, banner: false, bannerMs: null, error: e.message.split("\n")[0] };
        })
      : undefined;
  await context.close();
  return { role, path, ...first, repeat, ...(offline ? { offline } : {}) };
}

/**
 * offlineVisit opens the driver's home once more with no network, once the service worker
 * controls the page: every byte that still arrived from the network (any request, not served
 * by the worker or a cache), and the time from the navigation to the holdings figure.
 */
async function offlineVisit(page, cdp, context) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 60_000 });
  // the offline read cache holds the dashboard's state once it has been read and the field bar
  // (which keeps the cache) is in: wait for it there, as field-offline.spec.ts does, not for a
  // fixed second (on the emulated phone network the field bar loads after the first screen)
  await page.waitForFunction(
    () =>
      new Promise((resolve) => {
        const req = indexedDB.open("swapbay-reads");
        req.onsuccess = () => {
          const db = req.result;
          if (!db.objectStoreNames.contains("answers")) return resolve(false);
          const get = db.transaction("answers").objectStore("answers").get("/api/state");
          get.onsuccess = () => resolve(!!get.result);
          get.onerror = () => resolve(false);
        };
        req.onerror = () => resolve(false);
      }),
    null,
    { timeout: 60_000, polling: 250 },
  );
  let bytes = 0;
  const local = new Set();
  const onResponse = (ev) => {
    const r = ev.response;
    if (r.fromServiceWorker || r.fromDiskCache || r.fromPrefetchCache || r.fromEarlyHints) local.add(ev.requestId);
  };
  const onCache = (ev) => local.add(ev.requestId);
  const onDone = (ev) => {
    if (!local.has(ev.requestId)) bytes += ev.encodedDataLength;
  };
  cdp.on("Network.responseReceived", onResponse);
  cdp.on("Network.requestServedFromCache", onCache);
  cdp.on("Network.loadingFinished", onDone);
  await cdp.send("Network.emulateNetworkConditions", { ...NETWORK, offline: true });
  await context.setOffline(true);
  await page.reload({ waitUntil: "load", timeout: 60_000 });
  await page.getByRole("button", { name: /^Your Batteries/ }).waitFor({ timeout: 60_000 });
  const figuresMs = Math.round(await page.evaluate(() => performance.now()));
  const bannerMs = await page
    .getByText(/^Offline — figures from/)
    .waitFor({ timeout: 10_000 })
    .then(() => page.evaluate(() => Math.round(performance.now())))
    .catch(() => null);
  await page.waitForTimeout(300);
  cdp.off("Network.responseReceived", onResponse);
  cdp.off("Network.requestServedFromCache", onCache);
  cdp.off("Network.loadingFinished", onDone);
  return { bytesFromNetwork: bytes, figuresMs, banner: bannerMs !== null, bannerMs };
}

const results = [];
// a guest types the site's address, /, more often than /auth: both are measured
results.push(await measure("guest", null, "/"));
results.push(await measure("guest", null, "/auth"));
if (driverEmail) results.push(await measure("driver", driverEmail));
if (adminEmail) results.push(await measure("admin", adminEmail));
await browser.close();
console.log(JSON.stringify({ network: "1.6 Mbps down / 750 kbps up / 150 ms RTT, cold cache, 390x844", results }, null, 2));
