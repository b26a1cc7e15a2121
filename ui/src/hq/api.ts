// Head office's calls (docs/hq.md, issue 45's contract): every shape the HQ screens read, their
// query options (the URL is the key, as in the city) and the keyed mutations. HQ has its own
// QueryClient (hq/query-client.ts): HQ's answers come from followed copies that move on their
// own, so its queries refetch when a screen mounts and the overview polls.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuditEntry } from "@/components/audit-entry-row";
import { apiRequest, getJSON } from "@/lib/api-client";
import { newIdempotencyKey } from "@/lib/idempotency";

/** HqRole is a head-office user's role. */
export type HqRole = "hq_admin" | "hq_viewer";

/** HqUser is the signed-in head-office user (POST /api/hq/auth/login, GET /api/hq/me). */
export type HqUser = { id: string; email: string; name: string; role: HqRole | string };

/** isHqAdmin: only an hq_admin edits cities and starts recalls; an hq_viewer reads. */
export function isHqAdmin(user: HqUser | null | undefined): boolean {
  return user?.role === "hq_admin";
}

export const ME_URL = "/api/hq/me";
export const LOGIN_URL = "/api/hq/auth/login";
export const LOGOUT_URL = "/api/hq/auth/logout";
export const CITIES_URL = "/api/hq/cities";
export const OVERVIEW_URL = "/api/hq/overview";
export const HISTORY_URL = "/api/hq/history";
export const PACKS_URL = "/api/hq/packs";
export const TRANSIT_URL = "/api/hq/transit";
export const RECALLS_URL = "/api/hq/recalls";
export const RECALL_PREVIEW_URL = "/api/hq/recall-preview";
export const AUDIT_URL = "/api/hq/audit";

/** CopyState is a followed copy's state (modules/hq/follow). */
export type CopyState = "restoring" | "following" | "behind" | "failed" | "stopped" | string;

/** CityCopy is GET /api/hq/cities' copy of one city. */
export type CityCopy = {
  state: CopyState;
  lagSeconds: number;
  replicaAgeSeconds?: number;
  lastAppliedAt?: string;
  copyTxid?: number;
  replicaTxid?: number;
  restores?: number;
  error?: string;
  warning?: string;
};

/** City is one city as GET /api/hq/cities answers it (keys and token never come back: only whether they are set). */
export type City = {
  id: string;
  name: string;
  timeZone: string;
  currency: string;
  replicaUrl: string;
  accessKeyIdSet: boolean;
  secretAccessKeySet: boolean;
  address: string;
  tokenSet: boolean;
  copy: CityCopy;
};

/** CityInput is POST/PUT /api/hq/cities' body: a blank key, secret or token keeps the stored one (PUT). */
export type CityInput = {
  name: string;
  timeZone: string;
  currency: string;
  replicaUrl: string;
  accessKeyId: string;
  secretAccessKey: string;
  address: string;
  token: string;
};

/** Stock is a city's (or the total's) batteries by state; inTransit counts packs. */
export type Stock = { ready: number; waiting: number; charging: number; field: number; quarantined: number; inTransit: number };

export type DaySwaps = { day: string; swaps: number };
export type WeekPay = { weekStart: string; cents: number };

/** OverviewCity is one city's card on the overview. ok false: its copy could not be read (error in words). */
export type OverviewCity = {
  id: string;
  name: string;
  timeZone: string;
  currency: string;
  address: string;
  copy: { state: CopyState; lagSeconds: number; warning?: string; behind: boolean };
  ok: boolean;
  error?: string;
  stock?: Stock;
  swapsPerDay?: DaySwaps[];
  payPerWeek?: WeekPay[];
  recalls?: { count: number; packsQuarantined: number };
  missingPacks?: number;
};

/** Overview is GET /api/hq/overview. */
export type Overview = {
  asOf: string;
  cities: OverviewCity[];
  totals: { stock: Stock; swapsPerDay: DaySwaps[]; payByCurrency: { currency: string; weeks: WeekPay[] }[] };
};

/** History is GET /api/hq/history?weeks=N (HQ's daily rollups by the cities' Monday weeks). */
export type History = { cities: { id: string; name: string; currency: string; weeks: { weekStart: string; swaps: number; payCents: number }[] }[] };

/** FoundPack is one pack of GET /api/hq/packs?q=; url is the city's pack page. */
export type FoundPack = {
  cityId: string;
  cityName: string;
  serial: string;
  state: string;
  place: string;
  lastSeenAt?: string;
  model?: string;
  lot?: string;
  manufacturer?: string;
  url: string;
};

/** CityRead is whether a city's copy could be read for an answer. */
export type CityRead = { id: string; name: string; ok: boolean; error?: string };

export type PackSearch = { packs: FoundPack[]; cities: CityRead[] };

/** Transit is one transfer between cities (GET /api/hq/transit). */
export type Transit = {
  fromCityId: string;
  fromCity: string;
  ref: string;
  toCity: string;
  toCityId?: string;
  sentAt: string;
  serials: string[];
  received: string[];
  pending: string[];
};

/**
 * CountedTwice is a serial a city received from another city and that more than one city's copy
 * counts (in service, in maintenance or quarantined): the sender deleted or lost its send after
 * the receive (GET /api/hq/transit's inTwoCities, by serial).
 */
export type CountedTwice = {
  serial: string;
  /** cities: every city whose copy counts the serial, and its state there */
  cities: { cityId: string; cityName: string; state: string }[];
  receivedByCityId: string;
  receivedBy: string;
  /** fromCity: the sender as the receive names it */
  fromCity: string;
  ref: string;
};

/** TransitAnswer is GET /api/hq/transit; cities: which copies could be read (hq-reads answers it beside the contract's transfers). */
export type TransitAnswer = { transfers: Transit[]; inTwoCities: CountedTwice[]; cities?: CityRead[] };

export type RecallBy = "lot" | "model" | "manufacturer";

/**
 * RecallPreview is GET /api/hq/recall-preview: what a recall would take in each city. total and
 * count are the packs the recall would quarantine (not already quarantined, retired or
 * recycled); alreadyQuarantined the matching packs already quarantined (hq-recall's reading).
 */
export type RecallPreview = {
  total: number;
  alreadyQuarantined: number;
  cities: { id: string; name: string; count: number; alreadyQuarantined: number; ok: boolean; error?: string }[];
};

/** RecallCity is one city's part of a head-office recall. */
export type RecallCity = {
  id: string;
  name: string;
  send: "pending" | "sent" | "failed" | string;
  attempts: number;
  error?: string;
  cityRecallId?: string;
  matching: number;
  quarantined: number;
  done: boolean;
  /** sentAt is when the city answered (hq-recall's addition to the contract) */
  sentAt?: string;
  /** copyOk false: the city's copy could not be read, copyError says why (hq-recall's addition) */
  copyOk?: boolean;
  copyError?: string;
  /** lost: sent, but the city's copy no longer has the city's recall (the city went back to an older backup); error says so and Send again makes it there again */
  lost?: boolean;
};

/** HqRecall is a recall across cities. */
export type HqRecall = {
  id: string;
  by: RecallBy;
  value: string;
  reason: string;
  at: string;
  actor: { name: string };
  done: boolean;
  cities: RecallCity[];
};

/** RecallInput is POST /api/hq/recalls' body. */
export type RecallInput = { by: RecallBy; value: string; reason: string };

/** meQueryOptions: the signed-in user, null when signed out (401). */
export const meQueryOptions = queryOptions({
  queryKey: [ME_URL],
  queryFn: async ({ signal }) => (await getJSON<{ user: HqUser }>(ME_URL, "returnNull", signal))?.user ?? null,
  staleTime: Infinity,
});

/** useMe is the signed-in head-office user (null: signed out). */
export function useMe() {
  return useQuery(meQueryOptions);
}

/** citiesQueryOptions: every city with its copy's state; every HQ screen's banner reads it, every 30 s. */
export const citiesQueryOptions = queryOptions({
  queryKey: [CITIES_URL],
  queryFn: ({ signal }) => getJSON<City[]>(CITIES_URL, "throw", signal) as Promise<City[]>,
  refetchInterval: 30_000,
});

/** overviewQueryOptions: the overview, every 60 s while shown. */
export const overviewQueryOptions = queryOptions({
  queryKey: [OVERVIEW_URL],
  queryFn: ({ signal }) => getJSON<Overview>(OVERVIEW_URL, "throw", signal) as Promise<Overview>,
  refetchInterval: 60_000,
});

/** historyQueryOptions reads weeks (1..260) of the rollups. */
export function historyQueryOptions(weeks: number) {
  const url = `${HISTORY_URL}?weeks=${weeks}`;
  return queryOptions({ queryKey: [url], queryFn: ({ signal }) => getJSON<History>(url, "throw", signal) as Promise<History> });
}

/** packSearchQueryOptions finds packs by serial (or a label URL) in every city. */
export function packSearchQueryOptions(q: string) {
  const url = `${PACKS_URL}?q=${encodeURIComponent(q)}`;
  return queryOptions({ queryKey: [url], queryFn: ({ signal }) => getJSON<PackSearch>(url, "throw", signal) as Promise<PackSearch> });
}

export const transitQueryOptions = queryOptions({
  queryKey: [TRANSIT_URL],
  queryFn: ({ signal }) => getJSON<TransitAnswer>(TRANSIT_URL, "throw", signal) as Promise<TransitAnswer>,
  refetchInterval: 60_000,
});

export const recallsQueryOptions = queryOptions({
  queryKey: [RECALLS_URL],
  queryFn: ({ signal }) => getJSON<HqRecall[]>(RECALLS_URL, "throw", signal) as Promise<HqRecall[]>,
});

/** recallQueryOptions reads one recall, every 5 s until it is done everywhere. */
export function recallQueryOptions(id: string) {
  const url = `${RECALLS_URL}/${encodeURIComponent(id)}`;
  return queryOptions({
    queryKey: [url],
    queryFn: ({ signal }) => getJSON<HqRecall>(url, "throw", signal) as Promise<HqRecall>,
    refetchInterval: (q) => (q.state.data?.done ? false : 5_000),
  });
}

/**
 * auditQueryOptions: head office's audit list (hq_admin only), the raw writes its /_/ dashboard
 * made and its door allowed, newest first; every 60 s while shown, as the city's. The card shows
 * its own error.
 */
export const auditQueryOptions = queryOptions({
  queryKey: [AUDIT_URL],
  queryFn: async ({ signal }) => (await getJSON<{ entries: AuditEntry[] }>(AUDIT_URL, "throw", signal))?.entries ?? [],
  refetchInterval: 60_000,
  meta: { silentError: true },
});

/** useAudit reads head office's audit list; enabled for an hq_admin. */
export function useAudit(enabled: boolean) {
  return useQuery({ ...auditQueryOptions, enabled });
}

/** recallPreviewUrl is the preview's URL for a recall's by and value. */
export function recallPreviewUrl(by: RecallBy, value: string): string {
  return `${RECALL_PREVIEW_URL}?by=${by}&value=${encodeURIComponent(value)}`;
}

/** fetchRecallPreview counts, in every city's copy, what a recall would take. */
export function fetchRecallPreview(by: RecallBy, value: string): Promise<RecallPreview> {
  return getJSON<RecallPreview>(recallPreviewUrl(by, value)) as Promise<RecallPreview>;
}

/** useLogin signs in; the answer's user becomes the session (the cookie is set by the server). */
export function useLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; password: string }) => apiRequest<{ user: HqUser }>("POST", LOGIN_URL, input),
    meta: { ignoreUnauthorized: true },
    onSuccess: (res) => qc.setQueryData(meQueryOptions.queryKey, res?.user ?? null),
  });
}

/** useLogout signs out and drops every cached answer. */
export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    // keyed like every HQ write (hq-reads' logout route requires the header)
    mutationFn: () => apiRequest("POST", LOGOUT_URL, {}, { idempotencyKey: newIdempotencyKey() }),
    onSettled: () => {
      qc.clear();
      qc.setQueryData(meQueryOptions.queryKey, null);
    },
  });
}

/** useSaveCity adds (no id) or edits a city, keyed; the list is updated from the answer. */
export function useSaveCity() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input, idempotencyKey }: { id?: string; input: CityInput; idempotencyKey: string }) =>
      apiRequest<City>(id ? "PUT" : "POST", id ? `${CITIES_URL}/${encodeURIComponent(id)}` : CITIES_URL, input, { idempotencyKey }),
    onSuccess: (city) => {
      if (!city) return;
      qc.setQueryData<City[]>(citiesQueryOptions.queryKey, (old) =>
        [...(old ?? []).filter((c) => c.id !== city.id), city].sort((a, b) => a.name.localeCompare(b.name)),
      );
    },
  });
}

/** useDeleteCity deletes a city (keyed): its follower stops and its copy is deleted. */
export function useDeleteCity() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, idempotencyKey }: { id: string; idempotencyKey: string }) =>
      apiRequest<{ deleted: string }>("DELETE", `${CITIES_URL}/${encodeURIComponent(id)}`, undefined, { idempotencyKey }),
    onSuccess: (_res, { id }) => qc.setQueryData<City[]>(citiesQueryOptions.queryKey, (old) => old?.filter((c) => c.id !== id)),
  });
}

/** useStartRecall records a recall across cities (keyed); it is then sent to each city. */
export function useStartRecall() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: RecallInput; idempotencyKey: string }) =>
      apiRequest<{ recall: HqRecall }>("POST", RECALLS_URL, input, { idempotencyKey }),
    onSuccess: (res) => {
      const recall = res?.recall;
      if (!recall) return;
      qc.setQueryData(recallQueryOptions(recall.id).queryKey, recall);
      qc.setQueryData<HqRecall[]>(recallsQueryOptions.queryKey, (old) => (old ? [recall, ...old.filter((r) => r.id !== recall.id)] : old));
    },
  });
}

/**
 * useRetryRecallSend sends a city's failed (or still pending) part of a recall again, now
 * (POST /api/hq/recalls/{id}/cities/{cityId}/retry, keyed; hq-recall's route beside the
 * contract): after the city issued a new token and it was saved on the Cities page.
 */
export function useRetryRecallSend() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, cityId, idempotencyKey }: { id: string; cityId: string; idempotencyKey: string }) =>
      apiRequest<{ recall: HqRecall }>("POST", `${RECALLS_URL}/${encodeURIComponent(id)}/cities/${encodeURIComponent(cityId)}/retry`, {}, { idempotencyKey }),
    onSuccess: (res) => {
      if (res?.recall) qc.setQueryData(recallQueryOptions(res.recall.id).queryKey, res.recall);
    },
  });
}
