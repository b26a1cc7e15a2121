// The first-screen guard's recording and analysis (tests/first-screen-guard.spec.ts, issue 44):
// what a visitor's first screen at / fetched, and whether each script and /api call of it was
// started by index.html (its entry, its modulepreload links and the boot script's list for the
// visitor: ui/build/boot-script.ts, from app/first-screen.ts) or only later, after another
// script had finished: a waterfall the boot list missed, one more round trip on a phone network.
// Timing is by the page's own Resource Timing (each request's start against the end of the
// scripts before it), never by absolute milliseconds, so a loaded machine changes nothing.
import type { Page } from "@playwright/test";

/** FIRST_SCREEN_MARK is the performance mark the app sets when the first screen is shown (ui/src/lib/first-screen-shown.ts). */
export const FIRST_SCREEN_MARK = "swapbay:first-screen";

/** Req is one request of the page: path, start and end (ms, the page's clock), bytes over the wire. */
export type Req = { url: string; start: number; end: number; bytes: number };

/** Recording is a first screen's requests, the time its mark was set and what index.html names for it. */
export type Recording = { requests: Req[]; mark: number; named: string[] };

/** Verdict is the guard's answer: the late requests (with what each waited for) and the first screen's JS bytes. */
export type Verdict = { late: { url: string; after: string; message: string }[]; jsBytes: number; scripts: number };

const isScript = (url: string) => /\.m?js(\?|$)/.test(url);
const counted = (url: string) => isScript(url) || url.startsWith("/api/");

/**
 * analyze judges a recording: the requests that started before the mark are the first screen's;
 * a script or /api call among them that index.html does not name (each name covers one request)
 * and that started after a script had finished is late, reported with the last script to finish
 * before it started. jsBytes sums the first screen's scripts as transferred.
 */
export function analyze({ requests, mark, named }: Recording): Verdict {
  const first = requests.filter((r) => r.start < mark && counted(r.url)).sort((a, b) => a.start - b.start);
  const scripts = first.filter((r) => isScript(r.url));
  const left = new Map<string, number>();
  for (const n of named) left.set(n, (left.get(n) ?? 0) + 1);
  const late: Verdict["late"] = [];
  for (const r of first) {
    const n = left.get(r.url) ?? 0;
    if (n > 0) {
      left.set(r.url, n - 1);
      continue;
    }
    const before = scripts.filter((s) => s !== r && s.end <= r.start).sort((a, b) => b.end - a.end)[0];
    if (!before) continue;
    late.push({
      url: r.url,
      after: before.url,
      message: `${r.url} started at ${r.start.toFixed(0)} ms, only after ${before.url} had finished (${before.end.toFixed(0)} ms): the boot list does not name it`,
    });
  }
  return { late, jsBytes: scripts.reduce((n, s) => n + s.bytes, 0), scripts: scripts.length };
}

/** BootData is the boot script's list (ui/build/boot-script-source.ts BootData). */
type BootData = { session: string; guest: string[]; roles: Record<string, { api: string[]; js: string[] }> };

/**
 * namedBy lists what index.html starts for role (null: a guest) at /: its module scripts and
 * modulepreload links, and the boot script's session call and the role's (or the guest's) list.
 */
export function namedBy(html: string, role: string | null): string[] {
  const tags = [...html.matchAll(/<(?:script|link)\b[^>]*>/g)].map((m) => m[0]);
  const files = tags
    .filter((t) => /type="module"|rel="modulepreload"/.test(t))
    .map((t) => t.match(/(?:src|href)="([^"]+)"/)?.[1])
    .filter((u): u is string => !!u);
  const json = html.match(/,(\{"session":.*?\})\);<\/script>/)?.[1];
  if (!json) throw new Error("index.html has no boot script list");
  const boot = JSON.parse(json) as BootData;
  const own = role ? boot.roles[role] : { api: [], js: boot.guest };
  if (!own) throw new Error(`the boot script has no list for ${role}`);
  return [...files, boot.session, ...own.api, ...own.js];
}

/**
 * recordFirstScreen opens / on page (a fresh context: cold cache), waits for the first screen's
 * mark and for the network to settle, and answers its requests by Resource Timing.
 */
export async function recordFirstScreen(page: Page, role: string | null): Promise<Recording> {
  const html = await (await page.request.get("/")).text();
  await page.goto("/");
  await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, FIRST_SCREEN_MARK, { timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  const { requests, mark } = await page.evaluate((name) => {
    const origin = location.origin;
    const requests = (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .filter((e) => e.name.startsWith(origin))
      .map((e) => ({ url: e.name.slice(origin.length), start: e.startTime, end: e.responseEnd, bytes: e.transferSize }));
    return { requests, mark: performance.getEntriesByName(name)[0]!.startTime };
  }, FIRST_SCREEN_MARK);
  return { requests, mark, named: namedBy(html, role) };
}
