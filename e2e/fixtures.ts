// Test fixtures in the immich e2e style: seed and read raw records as the PocketBase
// superuser through the JS SDK (the /_/ path admins take), sign in by calling the API so the
// browser context holds the session cookie, and drive only the step under test in the UI.
import { type APIRequest, type APIRequestContext, type Page, test as base, expect } from "@playwright/test";
import PocketBase, { type RecordModel } from "pocketbase";
import path from "node:path";
import { BASE_URL, SCREENSHOTS, SUPERUSER } from "./env";

/** NewUser is a user to seed directly as the superuser. */
export type NewUser = {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  role?: "driver" | "admin" | "master_admin" | "corporate_liason";
  isApproved?: "pending" | "approved" | "rejected" | "suspended";
};

type Fixtures = {
  /** shot saves a full-page screenshot as screenshots/<project>-<name>.png. */
  shot: (name: string, page?: Page) => Promise<void>;
  /** unique makes a per-test, per-project email address. */
  unique: (prefix: string) => string;
};

type WorkerFixtures = {
  /**
   * pb is a PocketBase client signed in as the superuser, once per worker: PocketBase limits
   * auth requests per address (2 per 3 s), and tests run back to back.
   */
  pb: PocketBase;
};

export const test = base.extend<Fixtures, WorkerFixtures>({
  pb: [
    async ({}, use) => {
      const pb = new PocketBase(BASE_URL);
      pb.autoCancellation(false);
      await pb.collection("_superusers").authWithPassword(SUPERUSER.email, SUPERUSER.password);
      await use(pb);
    },
    { scope: "worker" },
  ],
  shot: async ({ page }, use, testInfo) => {
    await use(async (name, p = page) => {
      await p.screenshot({ path: path.join(SCREENSHOTS, `${testInfo.project.name}-${name}.png`), fullPage: true });
    });
  },
  unique: async ({}, use, testInfo) => {
    const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    await use((prefix) => `${prefix}-${testInfo.project.name}-${stamp}@example.com`);
  },
});

export { expect };

/** findUser reads a user record by email as the superuser (null when there is none). */
export async function findUser(pb: PocketBase, email: string): Promise<RecordModel | null> {
  const list = await pb.collection("users").getList(1, 1, { filter: pb.filter("email = {:email}", { email }) });
  return list.items[0] ?? null;
}

/** seedUser creates a user record directly (approved driver unless told otherwise). */
export async function seedUser(pb: PocketBase, u: NewUser): Promise<RecordModel> {
  return pb.collection("users").create({
    email: u.email,
    password: u.password,
    passwordConfirm: u.password,
    firstName: u.firstName,
    lastName: u.lastName,
    role: u.role ?? "driver",
    isApproved: u.isApproved ?? "approved",
  });
}

/** signIn signs the page's browser context in through the API (sets the session cookie). */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  const res = await page.request.post("/api/login", { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
}

/** toast finds the toast region's text (the app shows one toast at a time). */
export function toast(page: Page) {
  return page.getByRole("region", { name: /Notifications/ }).getByRole("listitem");
}

/** keyed posts a JSON write with an Idempotency-Key (as the UI always does) and expects 200. */
export async function keyed(api: APIRequestContext, url: string, data: unknown): Promise<unknown> {
  const res = await api.post(url, { data, headers: { "Idempotency-Key": crypto.randomUUID() } });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return res.json();
}

/** apiAs signs who in through /api/login on a request context of its own (no browser). */
export async function apiAs(request: APIRequest, who: { email: string; password: string }): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: BASE_URL });
  const res = await api.post("/api/login", { data: { email: who.email, password: who.password } });
  expect(res.status(), await res.text()).toBe(200);
  return api;
}

/** setPackTracking sets the pack tracking mode (DESIGN.md §14) as the master admin signed in on api. */
export async function setPackTracking(api: APIRequestContext, mode: "off" | "optional" | "required"): Promise<void> {
  await keyed(api, "/api/admin/settings", { settings: [{ key: "pack_tracking", value: mode }] });
}
