import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as z from "zod/mini";
import { apiRequest, getJSON } from "@/lib/api-client";
import { MAX_FLEET, wholeNumber } from "@/lib/count";
import { invalidate } from "@/lib/invalidation";

/** SETTING_DEFAULTS are the values a setting has until it is saved (spec part 2 §9). */
export const SETTING_DEFAULTS = {
  total_batteries: "160",
  charger_minutes_2_5A: "240",
  charger_minutes_4A: "180",
  charger_minutes_5A: "150",
  dropoff_prompt: "",
  pickup_prompt: "",
  time_zone: "",
} as const;

/** SettingKey names one System Settings field's key. */
export type SettingKey = keyof typeof SETTING_DEFAULTS;

const minutes = z
  .string()
  .check(z.trim(), z.refine((v) => v === "" || wholeNumber(v, 10_000) !== null, "Charger minutes must be a whole number 0 or greater"));

/** settingsSchema is the System Settings form (spec part 2 §5). */
export const settingsSchema = z.object({
  total_batteries: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, "Total batteries is required"),
      z.refine((v) => wholeNumber(v, MAX_FLEET) !== null, "Total batteries must be a whole number 0 or greater"),
    ),
  charger_minutes_2_5A: minutes,
  charger_minutes_4A: minutes,
  charger_minutes_5A: minutes,
  dropoff_prompt: z.string().check(z.maxLength(500, "Prompts can be at most 500 characters")),
  pickup_prompt: z.string().check(z.maxLength(500, "Prompts can be at most 500 characters")),
  time_zone: z.string().check(z.trim()),
});

/** SettingsValues are the form's values (as typed). */
export type SettingsValues = z.infer<typeof settingsSchema>;

/** historyCountQueryOptions: how many movements a wipe before date would remove. */
export function historyCountQueryOptions(date: string) {
  const url = `/api/admin/history/count?targetDate=${encodeURIComponent(date)}`;
  return queryOptions({
    queryKey: [url],
    queryFn: ({ signal }) => getJSON<{ count: number }>(url, "throw", signal),
    enabled: /^\d{4}-\d{2}-\d{2}$/.test(date),
  });
}

/** useHistoryCount reads the count for the chosen date. */
export function useHistoryCount(date: string) {
  return useQuery(historyCountQueryOptions(date));
}

/** WIPE_PHRASE is what the user types to confirm a history wipe. */
export const WIPE_PHRASE = "DELETE HISTORY";

/** wipeSchema is the History Management form (spec part 2 §5). */
export const wipeSchema = z.object({
  targetDate: z.string().check(z.minLength(1, "Target date is required")),
  confirmPhrase: z
    .string()
    .check(z.minLength(1, "Confirmation phrase is required"), z.refine((v) => v.trim() === WIPE_PHRASE, `Please type ${WIPE_PHRASE} to confirm`)),
});

/** WipeValues are the form's values. */
export type WipeValues = z.infer<typeof wipeSchema>;

/** useWipeHistory removes the movements before a date (master admins). */
export function useWipeHistory() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ values, idempotencyKey }: { values: WipeValues; idempotencyKey: string }) =>
      apiRequest<{ message: string; deleted: number }>("POST", "/api/admin/history/wipe", values, { idempotencyKey }),
    onSuccess: () => invalidate(qc, "everything"),
  });
}

/** CLEAN_SLATE_CONFIRM is the browser confirm before a clean slate (spec part 2 §5). */
export const CLEAN_SLATE_CONFIRM =
  "This will completely reset the system for production deployment. All movements, sessions, and balances will be cleared. This cannot be undone. Are you sure?";

/** useCleanSlate resets the system for production (master admins). */
export function useCleanSlate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey }: { idempotencyKey: string }) =>
      apiRequest<{ message: string }>("POST", "/api/admin/clean-slate", {}, { idempotencyKey }),
    onSuccess: () => invalidate(qc, "everything"),
  });
}
