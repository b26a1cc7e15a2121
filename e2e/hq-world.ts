// A small "run-hq world" for the head-office spec (tests/hq.spec.ts), from the built binary, as
// scripts/run-hq.sh makes it but smaller: two cities on their own demo data (each its own pack
// prefix), each `swapbay serve --replicate=file://…` to a directory, each city's master admin
// issuing head office's token, and `swapbay hq serve` following both, with its first hq_admin.
// Everything lives in one temporary dir, removed by stop(). Ports: HQ_WORLD_PORT (HQ; the
// cities the next ones) when set, else free ones.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { BINARY } from "./env";

/** HQ_ADMIN is head office's first hq_admin (`swapbay hq user create`). */
export const HQ_ADMIN = { email: "hq@swapbay.local", password: "swapbay-hq-demo", name: "Head Office" };
/** CITY_MASTER is each demo city's master admin (seed-demo's). */
export const CITY_MASTER = { email: "master@swapbay.local", password: "swapbay-demo" };

/** WorldCity is one city of the world: its name, pack prefix and address. */
export type WorldCity = { name: string; prefix: string; timeZone: string; currency: string; url: string; id: string };

/** HqWorld is the running world: head office's address, the cities, stop(). */
export type HqWorld = { hqURL: string; cities: WorldCity[]; dir: string; seedMs: number; stop: () => void };

const CITIES = [
  { name: "Paris", prefix: "PAR", timeZone: "Europe/Paris", currency: "EUR" },
  { name: "Berlin", prefix: "BER", timeZone: "Europe/Berlin", currency: "EUR" },
];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitUp(url: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const res = await fetch(url).catch(() => null);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`hq-world: ${url} did not answer`);
}

const key = () => ({ "Idempotency-Key": crypto.randomUUID() });

/** issueToken signs in as the city's master admin and issues a head-office token (System page → Head office). */
async function issueToken(cityURL: string): Promise<string> {
  const login = await fetch(`${cityURL}/api/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(CITY_MASTER) });
  if (!login.ok) throw new Error(`hq-world: the city's master admin could not sign in: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const res = await fetch(`${cityURL}/api/admin/head-office/tokens`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie, Origin: cityURL, ...key() },
    body: JSON.stringify({ name: "Head office (e2e hq-world)" }),
  });
  if (!res.ok) throw new Error(`hq-world: no token issued: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** hqToken signs in to head office as HQ_ADMIN with PocketBase's own route (there on main before HQ's cookie sign-in). */
async function hqToken(hqURL: string): Promise<string> {
  const res = await fetch(`${hqURL}/api/collections/users/auth-with-password`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ identity: HQ_ADMIN.email, password: HQ_ADMIN.password }),
  });
  if (!res.ok) throw new Error(`hq-world: head office sign-in: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** startHqWorld starts the two cities and head office and waits until both copies are followed. */
export async function startHqWorld(): Promise<HqWorld> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "swapbay-hq-world-"));
  const base = Number(process.env.HQ_WORLD_PORT ?? 0);
  const ports = base ? [base, base + 1, base + 2] : await Promise.all([freePort(), freePort(), freePort()]);
  const procs: ChildProcess[] = [];
  const stop = () => {
    for (const p of procs) p.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const seedStart = Date.now();
    const cities: WorldCity[] = CITIES.map((c, i) => {
      const cityDir = path.join(dir, c.name);
      execFileSync(BINARY, ["seed-demo", `--dir=${cityDir}`, `--pack-prefix=${c.prefix}`], { stdio: "ignore" });
      return { ...c, url: `http://127.0.0.1:${ports[i + 1]}`, id: "" };
    });
    const seedMs = Date.now() - seedStart;
    for (const c of cities) {
      procs.push(
        spawn(BINARY, ["serve", `--dir=${path.join(dir, c.name)}`, `--http=${new URL(c.url).host}`, `--replicate=file://${path.join(dir, `${c.name}-replica`)}`], {
          stdio: "ignore",
        }),
      );
    }
    const hqDir = path.join(dir, "hq");
    execFileSync(BINARY, ["hq", "user", "create", `--dir=${hqDir}`, `--email=${HQ_ADMIN.email}`, `--password=${HQ_ADMIN.password}`, "--role=hq_admin", `--name=${HQ_ADMIN.name}`], {
      stdio: "ignore",
    });
    const hqURL = `http://127.0.0.1:${ports[0]}`;
    procs.push(spawn(BINARY, ["hq", "serve", `--dir=${hqDir}`, `--http=127.0.0.1:${ports[0]}`], { stdio: "ignore" }));
    await Promise.all([hqURL, ...cities.map((c) => c.url)].map((u) => waitUp(`${u}/api/health`)));
    const auth = await hqToken(hqURL);
    for (const c of cities) {
      const token = await issueToken(c.url);
      const res = await fetch(`${hqURL}/api/hq/cities`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: auth, ...key() },
        body: JSON.stringify({
          name: c.name,
          timeZone: c.timeZone,
          currency: c.currency,
          replicaUrl: `file://${path.join(dir, `${c.name}-replica`)}`,
          address: c.url,
          token,
        }),
      });
      if (!res.ok) throw new Error(`hq-world: ${c.name} not added: ${res.status} ${await res.text()}`);
      c.id = ((await res.json()) as { id: string }).id;
    }
    // both copies restored and followed
    const until = Date.now() + 60_000;
    for (;;) {
      const list = (await (await fetch(`${hqURL}/api/hq/cities`, { headers: { Authorization: auth } })).json()) as { copy: { state: string } }[];
      if (list.length === cities.length && list.every((c) => c.copy.state === "following")) break;
      if (Date.now() > until) throw new Error(`hq-world: copies not followed: ${JSON.stringify(list.map((c) => c.copy))}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    return { hqURL, cities, dir, seedMs, stop };
  } catch (e) {
    stop();
    throw e;
  }
}
