// The first screen's request waterfall on the phone network of scripts/lcp.mjs, for finding what
// the Largest Contentful Paint waits on: prints the LCP candidates, then each request's start
// and end (ms from the first request), encoded bytes and path.
//
// Usage: node scripts/lcp-trace.mjs BASE_URL EMAIL PASSWORD
import { chromium } from "@playwright/test";
const [base, email, password] = process.argv.slice(2);
const NETWORK = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
await context.request.post(`${base}/api/login`, { data: { email, password } });
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send("Network.enable");
await cdp.send("Network.emulateNetworkConditions", NETWORK);
const reqs = new Map();
let t0 = 0;
cdp.on("Network.requestWillBeSent", (ev) => { if (!t0) t0 = ev.timestamp; reqs.set(ev.requestId, { url: ev.request.url.replace(base, ""), start: ev.timestamp }); });
cdp.on("Network.loadingFinished", (ev) => { const r = reqs.get(ev.requestId); if (r) { r.end = ev.timestamp; r.bytes = ev.encodedDataLength; } });
await page.addInitScript(() => {
  window.__lcp = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__lcp.push([Math.round(e.startTime), e.element?.tagName, (e.element?.textContent || "").slice(0, 40)]); }).observe({ type: "largest-contentful-paint", buffered: true });
});
await page.goto(base + "/", { waitUntil: "networkidle", timeout: 60000 });
await page.waitForTimeout(500);
console.log(JSON.stringify(await page.evaluate(() => window.__lcp)));
for (const r of [...reqs.values()].sort((a, b) => a.start - b.start)) console.log(((r.start - t0) * 1000).toFixed(0).padStart(5), (((r.end ?? r.start) - t0) * 1000).toFixed(0).padStart(5), String(r.bytes ?? "").padStart(6), r.url);
await browser.close();
