import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, BOOT_ANSWER_TTL_MS, apiRequest, errorMessage, getJSON, isUnauthorizedError, queryKeyUrl, startEarly } from "@/lib/api-client";
import { newIdempotencyKey } from "@/lib/idempotency";
import { bootScript } from "../../build/boot-script-source";

function mockFetch(status: number, body: string, statusText = "") {
  const fn = vi.fn(async (_url: string, _init?: RequestInit) => new Response(body || null, { status, statusText }));
  vi.stubGlobal("fetch", fn);
  return fn;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// A boot answer is taken only in the page's first BOOT_ANSWER_TTL_MS: the tests set the page's
// clock rather than depend on how fast this process started (a loaded machine took over 10 s
// to reach them, and every boot-answer test then failed).
function pageAgeMs(ms: number) {
  vi.spyOn(performance, "now").mockReturnValue(ms);
}

describe("ApiError", () => {
  it("reads 'status: text' and keeps the server's message", () => {
    const err = new ApiError(409, '{"status":409,"message":"Not enough batteries","data":{}}');
    expect(err.message).toBe('409: {"status":409,"message":"Not enough batteries","data":{}}');
    expect(err.status).toBe(409);
    expect(err.serverMessage).toBe("Not enough batteries");
    expect(err.code).toBe("");
    expect(errorMessage(err, "fallback")).toBe("Not enough batteries");
  });
  it("keeps the stable code callers decide by", () => {
    const err = new ApiError(409, '{"status":409,"message":"Waiting changed meanwhile","data":{},"code":"stat_changed"}');
    expect(err.code).toBe("stat_changed");
    expect(new ApiError(502, "Bad Gateway").code).toBe("");
  });
  it("falls back for other errors", () => {
    expect(errorMessage(new Error("boom"), "fallback")).toBe("fallback");
  });
  it("recognises unauthorized errors", () => {
    expect(isUnauthorizedError(new ApiError(401, "x"))).toBe(true);
    expect(isUnauthorizedError(new Error("Unauthorized"))).toBe(true);
    expect(isUnauthorizedError(new ApiError(403, "Account pending approval"))).toBe(false);
  });
});

describe("apiRequest", () => {
  it("sends JSON with credentials and the idempotency key", async () => {
    const fetch = mockFetch(200, '{"ok":true}');
    const key = newIdempotencyKey();
    await expect(apiRequest("POST", "/api/x", { a: 1 }, { idempotencyKey: key })).resolves.toEqual({ ok: true });
    const init = fetch.mock.calls[0]![1]!;
    expect(init.credentials).toBe("include");
    expect(init.body).toBe('{"a":1}');
    expect((init.headers as Record<string, string>)["Idempotency-Key"]).toBe(key);
    expect((init.headers as Record<string, string>)["Content-Type"]).toBe("application/json");
  });
  it("uses the status text when the body is empty", async () => {
    mockFetch(500, "", "Internal Server Error");
    await expect(apiRequest("GET", "/api/x")).rejects.toThrow("500: Internal Server Error");
  });
  it("returns null for an empty answer", async () => {
    mockFetch(204, "");
    await expect(apiRequest("DELETE", "/api/x")).resolves.toBeNull();
  });
});

describe("getJSON", () => {
  it("yields null on 401 when asked to", async () => {
    mockFetch(401, '{"message":"unauthorized"}');
    await expect(getJSON("/api/auth/user", "returnNull")).resolves.toBeNull();
  });
  it("throws on 401 otherwise", async () => {
    mockFetch(401, '{"message":"unauthorized"}');
    await expect(getJSON("/api/state", "throw")).rejects.toMatchObject({ status: 401 });
  });
  it("takes the boot script's answer once, and asks itself after a refusal", async () => {
    pageAgeMs(1_000);
    const fetched = mockFetch(200, '{"from":"network"}');
    window.__boot = {
      "/api/auth/user": Promise.resolve(new Response('{"from":"boot"}', { status: 200 })),
      "/api/state": Promise.resolve(new Response('{"message":"Terms re-signing required"}', { status: 403 })),
    };
    await expect(getJSON("/api/auth/user")).resolves.toEqual({ from: "boot" });
    expect(fetched).not.toHaveBeenCalled();
    await expect(getJSON("/api/auth/user")).resolves.toEqual({ from: "network" });
    // the 403 the boot script got before the user signed the terms again is not replayed
    await expect(getJSON("/api/state")).resolves.toEqual({ from: "network" });
    expect(fetched).toHaveBeenCalledTimes(2);
    delete window.__boot;
  });
});

describe("a boot answer", () => {
  it("is not used once the page is older than BOOT_ANSWER_TTL_MS", async () => {
    pageAgeMs(BOOT_ANSWER_TTL_MS + 1);
    const fetched = mockFetch(200, '{"from":"network"}');
    window.__boot = { "/api/auth/user": Promise.resolve(new Response('{"from":"boot"}', { status: 200 })) };
    await expect(getJSON("/api/auth/user")).resolves.toEqual({ from: "network" });
    expect(fetched).toHaveBeenCalledTimes(1);
    delete window.__boot;
  });
});

describe("startEarly", () => {
  beforeEach(() => pageAgeMs(1_000));
  it("asks once, and the first getJSON takes that answer", async () => {
    const fetched = mockFetch(200, '{"week":1}');
    startEarly("/api/admin/weekly-activity");
    startEarly("/api/admin/weekly-activity");
    await expect(getJSON("/api/admin/weekly-activity")).resolves.toEqual({ week: 1 });
    expect(fetched).toHaveBeenCalledTimes(1);
    delete window.__boot;
  });
  it("is not asked again by the boot script when the entry ran before the session answered", async () => {
    // index.html's boot script (as the build writes it), run as the browser runs it, with the admin's dashboard calls
    const weekly = "/api/admin/weekly-activity?activities=none";
    let answerSession = () => {};
    const fetched = vi.fn((url: string) =>
      url === "/api/auth/user"
        ? new Promise<Response>((resolve) => {
            answerSession = () => resolve(new Response('{"role":"admin","isApproved":"approved","mustResignTerms":false}', { status: 200 }));
          })
        : Promise.resolve(new Response('{"week":1}', { status: 200 })),
    );
    vi.stubGlobal("fetch", fetched);
    // the boot script preloads the role's chunk after it has made the role's calls: its link says it is done
    const chunk = "/assets/home-admin-test.js";
    new Function(bootScript({ session: "/api/auth/user", guest: [], roles: { admin: { api: ["/api/state", weekly], js: [chunk] } } }))();
    startEarly(weekly); // the router's, before the boot script heard from the session
    answerSession();
    await vi.waitFor(() => expect(fetched.mock.calls.map(([url]) => url)).toContain("/api/state"));
    await vi.waitFor(() => expect(document.head.querySelector(`link[data-boot][href="${chunk}"]`)).not.toBeNull());
    await expect(getJSON(weekly)).resolves.toEqual({ week: 1 });
    startEarly(weekly); // taken: not asked again either
    expect(fetched.mock.calls.filter(([url]) => url === weekly)).toHaveLength(1);
    document.head.querySelectorAll("link[data-boot]").forEach((l) => l.remove());
    delete window.__boot;
  });
  it("preloads the sign-in screen for a guest at / and asks for nothing else", async () => {
    const fetched = vi.fn(async (_url: string) => new Response('{"message":"no"}', { status: 401 }));
    vi.stubGlobal("fetch", fetched);
    new Function(
      bootScript({ session: "/api/auth/user", guest: ["/assets/auth-page.js"], roles: { admin: { api: ["/api/state"], js: ["/assets/shell.js"] } } }),
    )();
    await vi.waitFor(() => expect(document.head.querySelectorAll("link[data-boot]")).toHaveLength(1));
    expect(document.head.querySelector<HTMLLinkElement>("link[data-boot]")?.getAttribute("href")).toBe("/assets/auth-page.js");
    expect(fetched.mock.calls.map(([url]) => url)).toEqual(["/api/auth/user"]);
    await expect(getJSON("/api/auth/user", "returnNull")).resolves.toBeNull();
    document.head.querySelectorAll("link[data-boot]").forEach((l) => l.remove());
    delete window.__boot;
  });
  it("leaves a call the boot script already started alone", async () => {
    const fetched = mockFetch(200, '{"from":"network"}');
    window.__boot = { "/api/admin/recent-activity": Promise.resolve(new Response('{"from":"boot"}', { status: 200 })) };
    startEarly("/api/admin/recent-activity");
    await expect(getJSON("/api/admin/recent-activity")).resolves.toEqual({ from: "boot" });
    expect(fetched).not.toHaveBeenCalled();
    delete window.__boot;
  });
});

describe("queryKeyUrl", () => {
  it("joins the key into the URL", () => {
    expect(queryKeyUrl(["/api/admin/users"])).toBe("/api/admin/users");
    expect(queryKeyUrl(["/api/admin/users", "abc"])).toBe("/api/admin/users/abc");
  });
});

describe("newIdempotencyKey", () => {
  it("is a fresh time-ordered UUID (version 7) each time", () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});
