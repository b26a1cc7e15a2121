import { isSafariLike } from "@/lib/browser";
import { logError } from "@/lib/error-log";

/**
 * ApiError is thrown for every non-OK answer. Its message is 'status: text' as the spec's
 * error catalogue wants (text = the response body, or the status text when the body is
 * empty); status, serverMessage (the JSON body's `message`), code (its stable `code`, by
 * which callers decide: DESIGN.md §5) and data are kept for callers.
 */
/** RefusedPack is one pack a refusal names, as the server sends it in data.packs (docs/errors.md). */
export type RefusedPack = { serial: string; code: string; message: string };

/** refusedPacks reads a refusal's data.packs (the packs it names, each with its code and reason); [] when none. */
export function refusedPacks(data: unknown): RefusedPack[] {
  const list = data && typeof data === "object" ? (data as { packs?: unknown }).packs : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((p: unknown) => {
    if (!p || typeof p !== "object") return [];
    const { serial, code, message } = p as Record<string, unknown>;
    return typeof serial === "string" && serial !== "" ? [{ serial, code: typeof code === "string" ? code : "", message: typeof message === "string" ? message : "" }] : [];
  });
}

export class ApiError extends Error {
  readonly status: number;
  readonly serverMessage: string;
  readonly code: string;
  readonly data: unknown;

  constructor(status: number, text: string) {
    super(`${status}: ${text}`);
    this.name = "ApiError";
    this.status = status;
    let serverMessage = text;
    let code = "";
    let data: unknown = undefined;
    try {
      const body = JSON.parse(text) as { message?: unknown; code?: unknown; data?: unknown };
      if (body && typeof body.message === "string") serverMessage = body.message;
      if (body && typeof body.code === "string") code = body.code;
      data = body?.data;
    } catch {
      // not JSON: the text itself is the message
    }
    this.serverMessage = serverMessage;
    this.code = code;
    this.data = data;
  }
}

/** isUnauthorizedError reports a 401 or an 'Unauthorized' message (spec part 1 §8). */
export function isUnauthorizedError(error: unknown): boolean {
  if (error instanceof ApiError && error.status === 401) return true;
  return error instanceof Error && /^401: |Unauthorized/.test(error.message);
}

/**
 * errorMessage returns what a toast shows for error: the server's message when there is
 * one, else fallback.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage.trim() || fallback;
  return fallback;
}

/** RequestOptions tunes one apiRequest call. */
export type RequestOptions = {
  /** idempotencyKey is sent as the Idempotency-Key header (see newIdempotencyKey). */
  idempotencyKey?: string;
  signal?: AbortSignal;
};

async function throwIfResNotOk(res: Response, method: string, url: string): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  const err = new ApiError(res.status, text);
  if (isSafariLike() && res.status !== 401) logError(err, `${method} ${url}`);
  throw err;
}

async function parseBody<T>(res: Response): Promise<T> {
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/**
 * apiRequest sends one JSON request with the session cookie and returns the parsed answer
 * (null for an empty body). Non-OK answers throw ApiError.
 */
export async function apiRequest<T = unknown>(
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey;
  const res = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "include",
    signal: options.signal,
  });
  await throwIfResNotOk(res, method, url);
  return parseBody<T>(res);
}

/**
 * readCached is the offline read cache's answer for url (lib/offline-cache.ts, its own chunk,
 * loaded only when a read fails for want of a network).
 */
function readCached<T>(url: string): Promise<T | undefined> {
  return import("@/lib/offline-cache").then((m) => m.cachedRead<T>(url)).catch(() => undefined);
}

/** On401 chooses what a GET does with a 401: yield null, or throw like any error. */
export type On401 = "returnNull" | "throw";

/** fetchJSON is the plain GET of url with the session, as getJSON (and the boot script) send it. */
function fetchJSON(url: string, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { credentials: "include", headers: { Accept: "application/json" }, signal });
}

/**
 * getJSON fetches url; with on401 'returnNull' a 401 yields null instead of an error
 * (used for the current user).
 */
export async function getJSON<T>(url: string, on401: On401 = "throw", signal?: AbortSignal): Promise<T | null> {
  let res: Response;
  try {
    res = (await takeBootAnswer(url)) ?? (await fetchJSON(url, signal));
  } catch (error) {
    // no network: the last answer kept for the offline start, if any (DESIGN.md §12)
    if (signal?.aborted) throw error;
    const cached = await readCached<T>(url);
    if (cached !== undefined) return cached;
    throw error;
  }
  // the screen is live again (lib/connectivity.ts listens; not imported here, to keep the
  // sign-in screen's chunk small)
  if (typeof window !== "undefined") window.dispatchEvent(new Event("swapbay:fresh-read"));
  if (on401 === "returnNull" && res.status === 401) return null;
  await throwIfResNotOk(res, "GET", url);
  return parseBody<T>(res);
}

declare global {
  interface Window {
    /** __boot holds the calls index.html starts before the app's JavaScript arrives. */
    __boot?: Record<string, Promise<Response | null> | undefined>;
  }
}

/** BOOT_ANSWER_TTL_MS is how long after the page load a boot answer may still be used. */
export const BOOT_ANSWER_TTL_MS = 10_000;

/**
 * takeBootAnswer hands over, once, the answer index.html's boot script already asked for
 * url (the session; on / the dashboard's state and the role's dashboard calls listed by
 * build/role-preload.ts), so the first screen does not wait for the JavaScript before its
 * data is requested. null when there is none, it failed, it is a
 * refusal other than "not signed in" (a user who must re-sign the terms is refused /api/state
 * until they sign), or it is older than BOOT_ANSWER_TTL_MS: the caller then asks itself.
 */
async function takeBootAnswer(url: string): Promise<Response | null> {
  const boot = typeof window === "undefined" ? undefined : window.__boot;
  const pending = boot?.[url];
  if (!pending) return null;
  boot[url] = undefined; // taken: the key stays, so the boot script does not ask again
  if (performance.now() > BOOT_ANSWER_TTL_MS) return null;
  try {
    const res = await pending;
    return res && (res.ok || res.status === 401) ? res : null;
  } catch {
    return null;
  }
}

/** queryKeyUrl joins a query key into its URL: the spec's keys are the URLs. */
export function queryKeyUrl(queryKey: readonly unknown[]): string {
  return queryKey.map(String).join("/");
}
