import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { RouterProvider, createMemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AuditEntry } from "@/components/audit-entry-row";
import type { City, HqRecall, Overview, TransitAnswer } from "@/hq/api";
import { hqRoutes } from "@/hq/app";
import { makeHqQueryClient } from "@/hq/query-client";

vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const paris: City = {
  id: "par",
  name: "Paris",
  timeZone: "Europe/Paris",
  currency: "EUR",
  replicaUrl: "file:///tmp/paris",
  accessKeyIdSet: false,
  secretAccessKeySet: false,
  address: "https://paris.example",
  tokenSet: true,
  copy: { state: "behind", lagSeconds: 480 },
};
const berlin: City = { ...paris, id: "ber", name: "Berlin", address: "https://berlin.example", copy: { state: "following", lagSeconds: 0 } };

const stock = { ready: 12, waiting: 3, charging: 4, field: 20, quarantined: 1, inTransit: 0 };
const overview: Overview = {
  asOf: "2026-11-28T10:00:00Z",
  cities: [
    {
      id: "par",
      name: "Paris",
      timeZone: "Europe/Paris",
      currency: "EUR",
      address: "https://paris.example",
      copy: { state: "behind", lagSeconds: 480, behind: true },
      ok: true,
      stock,
      swapsPerDay: [
        { day: "2026-11-27", swaps: 5 },
        { day: "2026-11-28", swaps: 7 },
      ],
      payPerWeek: [{ weekStart: "2026-11-23", cents: 123450 }],
      recalls: { count: 1, packsQuarantined: 2 },
      missingPacks: 0,
    },
    {
      id: "ber",
      name: "Berlin",
      timeZone: "Europe/Berlin",
      currency: "EUR",
      address: "https://berlin.example",
      copy: { state: "failed", lagSeconds: 0, behind: true },
      ok: false,
      error: "its copy cannot be opened",
    },
  ],
  totals: { stock, swapsPerDay: [{ day: "2026-11-28", swaps: 7 }], payByCurrency: [{ currency: "EUR", weeks: [{ weekStart: "2026-11-23", cents: 123450 }] }] },
};

/** serve renders the HQ app at path, answering each URL from routes (a function of the request, or a body). */
function serve(path: string, routes: Record<string, (init?: RequestInit) => Response>) {
  const calls: { url: string; init?: RequestInit }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((url: string, init?: RequestInit) => {
      calls.push({ url, init });
      const key = `${init?.method ?? "GET"} ${url}`;
      const answer = routes[key];
      return Promise.resolve(answer ? answer(init) : json({ status: 404, message: "Not found" }, 404));
    }),
  );
  const router = createMemoryRouter(hqRoutes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={makeHqQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return calls;
}

const admin = { user: { id: "u1", email: "hq@swapbay.local", name: "Head Office", role: "hq_admin" } };
const viewer = { user: { id: "u2", email: "v@swapbay.local", name: "Viewer", role: "hq_viewer" } };

describe("head office's screens", () => {
  it("signs in at any path, showing the server's refusal in its words", async () => {
    let signedIn = false;
    const calls = serve("/", {
      "GET /api/hq/me": () => (signedIn ? json(admin) : json({ status: 401, message: "Unauthorized" }, 401)),
      "POST /api/hq/auth/login": (init) => {
        const body = JSON.parse(String(init?.body)) as { password: string };
        if (body.password !== "right-password") return json({ status: 400, message: "Invalid email or password.", data: {} }, 400);
        signedIn = true;
        return json(admin);
      },
      "GET /api/hq/cities": () => json([paris, berlin]),
      "GET /api/hq/overview": () => json(overview),
    });
    fireEvent.change(await screen.findByLabelText("Email"), { target: { value: "hq@swapbay.local" } });
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "wrong" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign In" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Invalid email or password.");
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "right-password" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign In" }));
    expect(await screen.findByRole("heading", { name: "Overview" })).toBeTruthy();
    expect(calls.some((c) => c.url === "/api/hq/auth/login" && c.init?.method === "POST")).toBe(true);
    // the behind banner, a card per city, one that could not be read
    expect((await screen.findByText("Paris's data is 8 minutes behind.")).textContent).toBeTruthy();
    expect(await screen.findByRole("heading", { name: "Paris" })).toBeTruthy();
    expect(screen.getByText(/Berlin's figures could not be read: its copy cannot be opened/)).toBeTruthy();
    expect(screen.getAllByText("€1,234.50").length).toBeGreaterThan(0);
    // the swaps' figures are in a table for screen readers
    expect(screen.getByRole("table", { name: "Paris's swaps per day, last 30 days" })).toBeTruthy();
  });

  it("shows no edit or recall buttons to an hq_viewer, and both to an hq_admin", async () => {
    serve("/cities", { "GET /api/hq/me": () => json(viewer), "GET /api/hq/cities": () => json([paris, berlin]) });
    expect(await screen.findByRole("heading", { name: "Berlin" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Add city|Edit|Delete/ })).toBeNull();
    cleanup();
    serve("/recalls", { "GET /api/hq/me": () => json(viewer), "GET /api/hq/cities": () => json([]), "GET /api/hq/recalls": () => json([]) });
    expect(await screen.findByText("No recall yet.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "New recall" })).toBeNull();
    cleanup();
    serve("/cities", { "GET /api/hq/me": () => json(admin), "GET /api/hq/cities": () => json([paris]) });
    expect(await screen.findByRole("button", { name: "Edit Paris" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Add city" })).toBeTruthy();
  });

  it("shows an hq_admin the Audit List on the Cities page, each change or the empty sentence, and a viewer none", async () => {
    const entries: AuditEntry[] = [
      { id: "a2", at: "2026-11-28T10:05:00Z", actor: "root@hq.example", actorKind: "_superusers", action: "update", collection: "cities", recordId: "par", fields: ["name", "currency"] },
      { id: "a1", at: "2026-11-28T10:00:00Z", actor: "root@hq.example", actorKind: "_superusers", action: "delete", collection: "hq_sessions", recordId: "s1", fields: [] },
    ];
    serve("/cities", { "GET /api/hq/me": () => json(admin), "GET /api/hq/cities": () => json([paris]), "GET /api/hq/audit": () => json({ entries }) });
    const section = await screen.findByRole("region", { name: "Audit List" });
    const rows = within(await within(section).findByRole("list", { name: "Audit list" })).getAllByRole("listitem");
    expect(rows).toHaveLength(2);
    const [changed, ended] = rows as [HTMLElement, HTMLElement];
    expect(within(changed).getByText("Changed")).toBeTruthy();
    expect(within(changed).getByText("cities par")).toBeTruthy();
    expect(within(changed).getByText("root@hq.example (superuser)")).toBeTruthy();
    expect(within(changed).getByText("name, currency")).toBeTruthy();
    expect(within(ended).getByText("Deleted")).toBeTruthy();
    expect(within(ended).getByText("hq_sessions s1")).toBeTruthy();
    expect(within(ended).queryByText("Fields")).toBeNull();
    cleanup();
    serve("/cities", { "GET /api/hq/me": () => json(admin), "GET /api/hq/cities": () => json([paris]), "GET /api/hq/audit": () => json({ entries: [] }) });
    expect(await screen.findByText("No changes made in the data dashboard.")).toBeTruthy();
    cleanup();
    const calls = serve("/cities", { "GET /api/hq/me": () => json(viewer), "GET /api/hq/cities": () => json([paris]) });
    expect(await screen.findByRole("heading", { name: "Paris" })).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Audit List" })).toBeNull();
    expect(calls.some((c) => c.url === "/api/hq/audit")).toBe(false);
  });

  it("adds a city with an Idempotency-Key, refusing bad fields before sending", async () => {
    const calls = serve("/cities", {
      "GET /api/hq/me": () => json(admin),
      "GET /api/hq/cities": () => json([]),
      "POST /api/hq/cities": (init) => json({ ...berlin, ...JSON.parse(String(init?.body)), id: "new" }),
    });
    fireEvent.click(await screen.findByRole("button", { name: "Add city" }));
    // the dialog's own submit button (the page's opener is behind it)
    await screen.findByRole("dialog", { name: "Add a city" });
    fireEvent.click(screen.getAllByRole("button", { name: "Add city" }).at(-1)!);
    expect(await screen.findByText("City name is required")).toBeTruthy();
    expect(calls.some((c) => c.init?.method === "POST")).toBe(false);
    const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
    fill("Name", "Lisbon");
    fill("Time zone", "Europe/Lisbon");
    fill("Currency", "eur");
    fill("Address", "https://lisbon.example");
    fill("Replica URL", "file:///tmp/lisbon");
    fill("Head-office token", "swbhq_secret");
    fireEvent.click(screen.getAllByRole("button", { name: "Add city" }).at(-1)!);
    await waitFor(() => expect(calls.some((c) => c.init?.method === "POST")).toBe(true));
    const post = calls.find((c) => c.init?.method === "POST")!;
    expect((post.init?.headers as Record<string, string>)["Idempotency-Key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(String(post.init?.body))).toMatchObject({ name: "Lisbon", currency: "EUR", token: "swbhq_secret" });
  });

  it("shows a recall per city and says done", async () => {
    const recall: HqRecall = {
      id: "r1",
      by: "lot",
      value: "L-7",
      reason: "Swelling",
      at: "2026-11-28T10:00:00Z",
      actor: { name: "Head Office" },
      done: true,
      cities: [
        { id: "par", name: "Paris", send: "sent", attempts: 1, matching: 2, quarantined: 2, done: true },
        { id: "ber", name: "Berlin", send: "sent", attempts: 1, matching: 0, quarantined: 0, done: true },
      ],
    };
    serve("/recalls/r1", { "GET /api/hq/me": () => json(admin), "GET /api/hq/cities": () => json([]), "GET /api/hq/recalls/r1": () => json(recall) });
    expect(await screen.findByText("Done: every matching pack in every city is quarantined.")).toBeTruthy();
    expect(screen.getByText("Sent · done · 2 of 2 packs quarantined")).toBeTruthy();
  });

  it("shows a lost send in words, and keeps the keyboard on Send again while it sends", async () => {
    const lost = "The city no longer has this recall: it went back to a backup from before it. Send it again.";
    const recall: HqRecall = {
      id: "r1",
      by: "lot",
      value: "L-7",
      reason: "Swelling",
      at: "2026-11-28T10:00:00Z",
      actor: { name: "Head Office" },
      done: false,
      cities: [{ id: "par", name: "Paris", send: "sent", attempts: 1, error: lost, lost: true, matching: 2, quarantined: 0, done: false }],
    };
    let release: () => void = () => {};
    serve("/recalls/r1", {
      "GET /api/hq/me": () => json(admin),
      "GET /api/hq/cities": () => json([]),
      "GET /api/hq/recalls/r1": () => json(recall),
      // the retry hangs until released: the button is pending meanwhile
      "POST /api/hq/recalls/r1/cities/par/retry": () =>
        new Promise<Response>((resolve) => {
          release = () => resolve(json({ recall }));
        }) as unknown as Response,
    });
    expect(await screen.findByText(lost)).toBeTruthy();
    const again = screen.getByRole("button", { name: "Send again to Paris" });
    again.focus();
    fireEvent.click(again);
    await screen.findByText("Sending...");
    // a disabled button would drop the focus to the page
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Send again to Paris" }));
    expect(screen.getByRole("button", { name: "Send again to Paris" }).hasAttribute("disabled")).toBe(false);
    release();
    // the cities' table sits in one shrinkable column (a phone scrolls the table, not the page)
    expect(screen.getByRole("table").closest(".grid")?.className).toContain("grid-cols-1");
  });

  it("shows the packs counted in two cities above the transfers, with what to do, and nothing when there are none", async () => {
    const answer: TransitAnswer = {
      transfers: [
        {
          fromCityId: "par",
          fromCity: "Paris",
          ref: "t1",
          toCity: "Berlin",
          toCityId: "ber",
          sentAt: "2026-11-28T08:00:00Z",
          serials: ["PAR-000123"],
          received: [],
          pending: ["PAR-000123"],
        },
      ],
      inTwoCities: ["PAR-000001", "PAR-000002"].map((serial) => ({
        serial,
        cities: [
          { cityId: "ber", cityName: "Berlin", state: "in_service" },
          { cityId: "par", cityName: "Paris", state: "in_service" },
        ],
        receivedByCityId: "ber",
        receivedBy: "Berlin",
        fromCity: "Paris",
        ref: "t0",
      })),
      cities: [
        { id: "ber", name: "Berlin", ok: true },
        { id: "par", name: "Paris", ok: true },
      ],
    };
    serve("/transit", { "GET /api/hq/me": () => json(viewer), "GET /api/hq/cities": () => json([]), "GET /api/hq/transit": () => json(answer) });
    const heading = await screen.findByRole("heading", { name: "Counted in two cities" });
    const section = heading.closest("section")!;
    expect(
      within(section).getByText(
        "Paris deleted or lost its send after Berlin received these packs. Count Paris's shelves (Packs → Stocktake): a pack not found there leaves its counts.",
      ),
    ).toBeTruthy();
    const list = within(section).getByRole("list", { name: "Packs Berlin received that Paris still counts" });
    expect(within(list).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "PAR-000001 — in service in Berlin and in Paris (received by Berlin)",
      "PAR-000002 — in service in Berlin and in Paris (received by Berlin)",
    ]);
    // above the transfers
    const transfer = screen.getByRole("heading", { name: /^Paris\s*to\s*Berlin$/ });
    expect(heading.compareDocumentPosition(transfer) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    cleanup();

    serve("/transit", { "GET /api/hq/me": () => json(viewer), "GET /api/hq/cities": () => json([]), "GET /api/hq/transit": () => json({ ...answer, inTwoCities: [] }) });
    expect(await screen.findByRole("heading", { name: /^Paris\s*to\s*Berlin$/ })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Counted in two cities" })).toBeNull();
    expect(screen.queryByText(/Stocktake/)).toBeNull();
  });

  it("searches a pasted label URL by its serial, refusing a short one, and links to the city's pack page", async () => {
    const calls = serve("/packs", {
      "GET /api/hq/me": () => json(viewer),
      "GET /api/hq/cities": () => json([paris, berlin]),
      "GET /api/hq/packs?q=BER-000042": () =>
        json({
          packs: [
            {
              cityId: "ber",
              cityName: "Berlin",
              serial: "BER-000042",
              state: "in_transit",
              place: "On the way to Paris",
              lastSeenAt: "2026-11-28T08:00:00Z",
              url: "https://berlin.example/packs/BER-000042",
            },
          ],
          cities: [
            { id: "par", name: "Paris", ok: false, error: "The copy cannot be opened." },
            { id: "ber", name: "Berlin", ok: true },
          ],
        }),
    });
    const field = await screen.findByLabelText("Serial or label URL");
    fireEvent.change(field, { target: { value: "BE" } });
    fireEvent.click(screen.getByRole("button", { name: "Search" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Enter at least 3 characters of a serial.");
    fireEvent.change(field, { target: { value: "https://berlin.example/p/BER-000042" } });
    fireEvent.click(screen.getByRole("button", { name: "Search" }));
    const link = await screen.findByRole("link", { name: /Open in Berlin/ });
    expect(link.getAttribute("href")).toBe("https://berlin.example/packs/BER-000042");
    expect(within(link.closest("li")!).getByText("In transit")).toBeTruthy();
    expect(screen.getByText("Paris's packs could not be searched: The copy cannot be opened.")).toBeTruthy();
    expect(calls.filter((c) => c.url.startsWith("/api/hq/packs")).map((c) => c.url)).toEqual(["/api/hq/packs?q=BER-000042"]);
    // the banner is on this screen too
    expect(screen.getByText("Paris's data is 8 minutes behind.")).toBeTruthy();
  });
});
