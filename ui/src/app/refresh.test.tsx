import { QueryClient, QueryClientProvider, type UseMutationResult } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import type * as React from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useSignTerms } from "@/features/auth/api/sign-terms";
import { backupsQueryOptions, useBackupNow, useSaveSchedule } from "@/features/backups/api/backups";
import { useUpdateStats } from "@/features/dashboard/api/update-stats";
import { photosQueryOptions, useDeletePhoto, useMassDeletePhotos } from "@/features/photos/api/photos";
import { pendingUsersQueryOptions } from "@/features/users/api/get-pending-users";
import { usersQueryOptions } from "@/features/users/api/get-users";
import { useUpdateApproval } from "@/features/users/api/update-approval";
import { userQueryOptions } from "@/lib/auth";
import { stateQueryOptions } from "@/lib/state";

vi.mock("@/hooks/use-toast", () => ({ toast: vi.fn() }));

type Options = { queryKey: readonly unknown[]; meta?: Record<string, unknown> };

/**
 * A mutation refreshes the screens through the one mechanism (lib/invalidation.ts): it names
 * what it changed and every query whose meta.staleOn lists that change is refetched. Each row:
 * a mutation, what it is called with, the server's answer, the queries it must make stale, and
 * one that must stay fresh (a mutation that refetched everything would fail the row).
 */
type Row = {
  name: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  hook: () => UseMutationResult<any, any, any, any>;
  input: unknown;
  status?: number;
  answer?: unknown;
  stale: Options[];
};

const rows: Row[] = [
  { name: "deleting a photo", hook: useDeletePhoto, input: "p1", stale: [photosQueryOptions] },
  { name: "deleting photos at once, refused", hook: useMassDeletePhotos, input: ["p1", "p2"], status: 400, stale: [photosQueryOptions] },
  { name: "approving a user", hook: useUpdateApproval, input: { userId: "u1", isApproved: "approved", idempotencyKey: "k" }, stale: [usersQueryOptions, pendingUsersQueryOptions] },
  { name: "saving the backup schedule", hook: useSaveSchedule, input: { input: { enabled: true, time: "02:00", keep: 7 }, idempotencyKey: "k" }, stale: [backupsQueryOptions] },
  { name: "a backup made now", hook: useBackupNow, input: { idempotencyKey: "k" }, stale: [backupsQueryOptions] },
  { name: "signing the terms again", hook: useSignTerms, input: { signatureData: "data:image/png;base64,AA" }, answer: { id: "u1" }, stale: [userQueryOptions] },
  { name: "a figure set by hand", hook: useUpdateStats, input: { body: { stat: "waiting", value: 3, from: 2 } }, stale: [stateQueryOptions] },
];

const untouched: Options = { queryKey: ["/api/untouched"], meta: { staleOn: ["charging"] } };

afterEach(() => vi.unstubAllGlobals());

describe("every mutation refreshes through meta.staleOn", () => {
  it.each(rows)("$name refreshes the queries that declare its change, and no other", async (row) => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify(row.answer ?? { success: true, message: "ok" }), { status: row.status ?? 200 })),
    );
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
    for (const o of [...row.stale, untouched]) {
      qc.getQueryCache().build(qc, o);
      qc.setQueryData(o.queryKey, {} as never);
    }
    const wrapper = ({ children }: { children: React.ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
    const { result } = renderHook(row.hook, { wrapper });
    result.current.mutate(row.input);
    await waitFor(() => expect(result.current.isIdle || result.current.isPending).toBe(false));
    for (const o of row.stale) await waitFor(() => expect(qc.getQueryState(o.queryKey)?.isInvalidated, String(o.queryKey[0])).toBe(true));
    expect(qc.getQueryState(untouched.queryKey)?.isInvalidated).toBe(false);
  });
});
