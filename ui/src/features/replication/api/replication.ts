import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as z from "zod/mini";
import { apiRequest, getJSON } from "@/lib/api-client";

/** REPLICATION_URL is the replication status call (admins) and its settings' PUT (master admin); its URL is also its query key. */
export const REPLICATION_URL = "/api/admin/replication";

/**
 * ReplicationSettings is the System page's replication form as the server answers it to a
 * master admin (modules/replication.Form): the stored URL and, of the credentials, only whether
 * they are set. setBy ("flag" or "env") means the server's own value wins: the form is read-only.
 */
export type ReplicationSettings = {
  enabled: boolean;
  url: string;
  accessKeyIdSet: boolean;
  secretAccessKeySet: boolean;
  setBy?: string;
};

/**
 * ReplicationStatus is GET /api/admin/replication (modules/replication.Status): whether data.db
 * is replicated, where to (never with credentials), the lag and the last sync. warning is set
 * when the lag passes 60 s, uploads fail, or the System page's replica did not start. settings
 * comes to a master admin only.
 */
export type ReplicationStatus = {
  enabled: boolean;
  target?: string;
  source?: string;
  litestream?: string;
  lastSync?: string;
  lagSeconds: number;
  localTxid: number;
  replicaTxid: number;
  lastError?: string;
  lastErrorAt?: string;
  warning?: string;
  settings?: ReplicationSettings;
};

/** replicationQueryOptions polls the status every 10 s while the page is open. */
export const replicationQueryOptions = queryOptions({
  queryKey: [REPLICATION_URL],
  queryFn: ({ signal }) => getJSON<ReplicationStatus>(REPLICATION_URL, "throw", signal) as Promise<ReplicationStatus>,
  refetchInterval: 10_000,
});

/** useReplication reads the replication status; enabled for the administrator roles. */
export function useReplication(enabled: boolean) {
  return useQuery({ ...replicationQueryOptions, enabled });
}

/** MSG_URL_REQUIRED is the server's own message for turning replication on without a URL. */
export const MSG_URL_REQUIRED = "Replica URL is required to turn replication on";

/** MSG_URL_FORM is the server's message for a URL it cannot replicate to. */
export const MSG_URL_FORM = "Replica URL must be s3://bucket/path?endpoint=…&region=… or file:///absolute/dir";

/** MSG_NEW_KEYS_REQUIRED is the server's message for another endpoint or bucket without new keys. */
export const MSG_NEW_KEYS_REQUIRED = "Changing the endpoint or bucket clears the saved keys: enter the access key ID and the secret for the new one";

/**
 * sameEndpoint tells whether two replica URLs name the same S3 endpoint and bucket (scheme,
 * bucket, endpoint and region; the path may differ), as the server decides whether the saved
 * keys still apply (modules/replication.sameEndpoint). Nothing saved is the same as anything.
 */
export function sameEndpoint(saved: string, next: string): boolean {
  if (saved.trim() === "") return true;
  const parse = (raw: string) => {
    const m = /^([a-z0-9]+):\/\/([^/?#]*)[^?#]*(?:\?([^#]*))?/i.exec(raw.trim());
    if (!m) return null;
    const q = new URLSearchParams(m[3] ?? "");
    return [m[1], m[2], (q.get("endpoint") ?? "").replace(/\/+$/, ""), q.get("region") ?? ""].join("\n");
  };
  const a = parse(saved);
  return a !== null && a === parse(next);
}

/** sourceText is where the running replica was set, as the card says it. */
export function sourceText(source: string | undefined): string {
  if (source === "flag") return "the server's --replicate flag (read-only here)";
  if (source === "env") return "the server's SWAPBAY_REPLICA_URL (read-only here)";
  return "this page";
}

/** replicationSchema is the form: the URL must be s3:// or file:// (the server checks the rest). */
export const replicationSchema = z
  .object({
    enabled: z.boolean(),
    url: z.string().check(z.trim()),
    accessKeyId: z.string().check(z.trim()),
    secretAccessKey: z.string(),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.enabled && v.url === "") ctx.addIssue({ code: "custom", path: ["url"], message: MSG_URL_REQUIRED });
      else if (v.url !== "" && !/^(s3|file):\/\//.test(v.url)) ctx.addIssue({ code: "custom", path: ["url"], message: MSG_URL_FORM });
    }),
  );

/** ReplicationValues are the form's values; a blank key or secret keeps the stored one while the endpoint and bucket stay. */
export type ReplicationValues = z.infer<typeof replicationSchema>;

/** useSaveReplication saves and applies the settings (PUT, keyed); the answer is the new status. */
export function useSaveReplication() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ values, idempotencyKey }: { values: ReplicationValues; idempotencyKey: string }) =>
      apiRequest<ReplicationStatus>("PUT", REPLICATION_URL, values, { idempotencyKey }),
    onSuccess: (status) => {
      if (status) qc.setQueryData(replicationQueryOptions.queryKey, status);
    },
  });
}

/** lagText is the lag as the card shows it: "under 1 s", "12 s", "3 min 5 s". */
export function lagText(seconds: number): string {
  if (seconds < 1) return "under 1 s";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}
