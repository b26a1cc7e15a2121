import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest, getJSON } from "@/lib/api-client";
import { invalidate } from "@/lib/invalidation";
import { newIdempotencyKey } from "@/lib/idempotency";

/** TermsVersion is one version as the editor sees it (GET /api/admin/terms-content). */
export type TermsVersion = {
  id: string;
  version: string;
  title: string;
  content: string;
  effectiveDate: string;
  isActive: boolean;
  /** signedCount > 0 makes the version immutable: edits answer 409. */
  signedCount: number;
  created: string;
  updated: string;
};

/** VersionInput is what Create and Edit send. */
export type VersionInput = Pick<TermsVersion, "version" | "title" | "content" | "effectiveDate">;

/** PDFStatus is an agreement PDF's state (DESIGN.md §7). */
export type PDFStatus = "generating" | "available" | "failed";

/** Agreement is one signed agreement (GET /api/admin/terms-agreements). */
export type Agreement = {
  id: string;
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  signedAt: string;
  termsVersion: string;
  pdfStatus: PDFStatus;
  /** the download path when available, "" while generating, "ERROR: …" after a failure */
  pdfUrl: string;
  /** how it was signed: drawn on the pad, or the signer's typed name */
  signatureMethod: "drawn" | "typed";
};

/** TERMS_STALE_MS: the terms list is fresh for 30 s (spec part 2 §9). */
export const TERMS_STALE_MS = 30_000;

/** versionsQueryOptions: every terms version, the active one first. */
export const versionsQueryOptions = queryOptions<TermsVersion[]>({
  queryKey: ["/api/admin/terms-content"],
  meta: { staleOn: ["TERMS_UPDATED", "terms"] },
  staleTime: TERMS_STALE_MS,
});

/** agreementsQueryOptions: every signed agreement, newest first. */
export const agreementsQueryOptions = queryOptions<Agreement[]>({
  queryKey: ["/api/admin/terms-agreements"],
  meta: { staleOn: ["TERMS_UPDATED", "terms"] },
  refetchInterval: 60_000,
});

/** useVersions reads the terms versions. */
export function useVersions() {
  return useQuery(versionsQueryOptions);
}

/** useAgreements reads the signed agreements. */
export function useAgreements() {
  return useQuery(agreementsQueryOptions);
}

/** loadTemplate fetches the built-in 2025 contractor agreement (effective today). */
export function loadTemplate(): Promise<VersionInput | null> {
  return getJSON<VersionInput>("/api/admin/terms-template");
}

function useTermsMutation<I>(fn: (input: I, key: string) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => fn(input, newIdempotencyKey()),
    onSettled: () => invalidate(qc, "terms"),
  });
}

/** useCreateVersion saves a new, inactive version. */
export function useCreateVersion() {
  return useTermsMutation((v: VersionInput, key) => apiRequest("POST", "/api/admin/terms-content", v, { idempotencyKey: key }));
}

/** useUpdateVersion edits an unsigned version. */
export function useUpdateVersion() {
  return useTermsMutation(({ id, ...v }: VersionInput & { id: string }, key) =>
    apiRequest("PUT", `/api/admin/terms-content/${encodeURIComponent(id)}`, v, { idempotencyKey: key }),
  );
}

/** useActivateVersion makes a version the active one. */
export function useActivateVersion() {
  return useTermsMutation((id: string, key) =>
    apiRequest("POST", `/api/admin/terms-content/${encodeURIComponent(id)}/activate`, {}, { idempotencyKey: key }),
  );
}

/** useRetryPDF regenerates an agreement's PDF now. */
export function useRetryPDF() {
  return useTermsMutation((id: string, key) =>
    apiRequest<{ message: string }>("POST", `/api/admin/retry-pdf/${encodeURIComponent(id)}`, {}, { idempotencyKey: key }),
  );
}

/** absoluteUrl prefixes a relative PDF path with the page's origin (spec part 2 §2). */
export function absoluteUrl(path: string, origin: string = window.location.origin): string {
  return /^https?:\/\//i.test(path) ? path : `${origin}${path.startsWith("/") ? "" : "/"}${path}`;
}

/**
 * openPDF opens an agreement's PDF (spec part 2 §2): on a phone in the same tab; on a desktop
 * in a new tab, falling back to the same tab when the pop-up is blocked. The tab is opened
 * without the "noopener" feature, which makes window.open return null by the HTML standard
 * (the fallback would then always replace the admin's tab); its opener is cut instead.
 */
export function openPDF(path: string, mobile: boolean, win: Pick<Window, "open" | "location"> = window): void {
  const url = absoluteUrl(path, win.location.origin);
  if (mobile) {
    win.location.assign(url);
    return;
  }
  const tab = win.open(url, "_blank");
  if (tab) tab.opener = null;
  else win.location.assign(url);
}
