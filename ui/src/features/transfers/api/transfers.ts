import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { afterWrite } from "@/lib/invalidation";

/** TRANSFERS_URL is the transfers' routes (admins; issue 45 item 6). */
export const TRANSFERS_URL = "/api/admin/packs/transfers";

/** Transfer is one send (out) or one receive (in) of packs between cities. */
export type Transfer = {
  id: string;
  direction: "out" | "in";
  /** the sending city's transfer id (an out transfer's own id) */
  ref: string;
  otherCity: string;
  otherAddress: string;
  at: string;
  actor: { name: string };
  /** out: the packs sent; in: the packs this receive took */
  serials: string[];
  /** in: every serial received from this send so far */
  received: string[];
  /** in: the manifest's serials; out: the packs sent */
  expected: string[];
  /** out only: the text the other city pastes */
  manifest?: string;
  movement: string;
  notes: string;
  /** one transfer's answer (and a send's or receive's): each serial's state here now; absent when it is no longer registered here */
  states?: Record<string, string>;
};

/** TransferAnswer is a send's or a receive's answer. */
export type TransferAnswer = { success: boolean; message: string; transfer: Transfer; stats?: Record<string, number> };

const STALE = ["INVENTORY_UPDATED", "ACTIVITY_UPDATED", "packs", "activity"] as const;

/** transfersQueryOptions: every transfer, newest first. */
export function transfersQueryOptions() {
  return queryOptions<Transfer[]>({
    queryKey: [TRANSFERS_URL],
    queryFn: ({ signal }) => apiRequest<Transfer[]>("GET", TRANSFERS_URL, undefined, { signal }),
    meta: { staleOn: STALE },
  });
}

/** useTransfers loads the list. */
export function useTransfers() {
  return useQuery(transfersQueryOptions());
}

/** transferQueryOptions: one transfer. */
export function transferQueryOptions(id: string) {
  return queryOptions<Transfer>({
    queryKey: [TRANSFERS_URL, id],
    queryFn: ({ signal }) => apiRequest<Transfer>("GET", `${TRANSFERS_URL}/${encodeURIComponent(id)}`, undefined, { signal }),
    meta: { staleOn: STALE },
  });
}

/** useTransfer loads one transfer. */
export function useTransfer(id: string) {
  return useQuery(transferQueryOptions(id));
}

/** qrURL is the PNG of an out transfer's manifest as a QR code. */
export function qrURL(id: string): string {
  return `${TRANSFERS_URL}/${encodeURIComponent(id)}/qr`;
}

/** SendInput is what the Send screen sends. */
export type SendInput = { toCity: string; toAddress: string; serials: string[]; notes: string; fromCity: string; idempotencyKey: string };

/** useSendPacks sends packs to another city (one keyed transfer_out). */
export function useSendPacks() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey, ...body }: SendInput) => apiRequest<TransferAnswer>("POST", TRANSFERS_URL, body, { idempotencyKey }),
    onSuccess: (answer) => afterWrite(qc, ["packs", "stats", "activity"], answer),
  });
}

/** ReceiveInput is what the Receive screen sends. */
export type ReceiveInput = { manifest: string; serials: string[]; to: "ready" | "waiting"; idempotencyKey: string };

/** useReceivePacks receives scanned packs of a manifest (one keyed transfer_in). */
export function useReceivePacks() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey, ...body }: ReceiveInput) => apiRequest<TransferAnswer>("POST", `${TRANSFERS_URL}/receive`, body, { idempotencyKey }),
    onSuccess: (answer) => afterWrite(qc, ["packs", "stats", "activity"], answer),
  });
}
