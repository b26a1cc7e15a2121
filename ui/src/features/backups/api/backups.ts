import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as z from "zod/mini";
import { apiRequest, getJSON } from "@/lib/api-client";
import { afterWrite } from "@/lib/invalidation";

/** BACKUPS_URL is the backups call; its URL is also its query key. */
export const BACKUPS_URL = "/api/admin/backups";

/** BackupSchedule is PocketBase's backup schedule as the System page edits it. */
export type BackupSchedule = { enabled: boolean; time: string; keep: number; custom: string; s3: boolean };

/** Backup is one stored backup archive. */
export type Backup = { name: string; size: number; modified: string };

/** BackupsState is GET /api/admin/backups. */
export type BackupsState = { schedule: BackupSchedule; backups: Backup[]; last: Backup | null };

/** backupsQueryOptions loads the schedule and the stored backups. */
export const backupsQueryOptions = queryOptions({
  queryKey: [BACKUPS_URL],
  queryFn: ({ signal }) => getJSON<BackupsState>(BACKUPS_URL, "throw", signal) as Promise<BackupsState>,
  meta: { staleOn: ["backups"] },
});

/** useBackups reads the schedule and the stored backups. */
export function useBackups() {
  return useQuery(backupsQueryOptions);
}

/** Messages of the schedule form (the server answers with the same ones). */
export const MSG_TIME = "Backup time must be a time of day as HH:MM";
export const MSG_KEEP = "Backups to keep must be a whole number from 1 to 100";

/** scheduleSchema: a daily time HH:MM and how many to keep (a whole number 1–100), as typed. */
export const scheduleSchema = z.object({
  enabled: z.boolean(),
  time: z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, MSG_TIME)),
  keep: z.string().check(
    z.trim(),
    z.regex(/^\d{1,3}$/, MSG_KEEP),
    z.refine((v) => Number(v) >= 1 && Number(v) <= 100, MSG_KEEP),
  ),
});

/** ScheduleValues are the form's values (as typed). */
export type ScheduleValues = z.infer<typeof scheduleSchema>;

/** ScheduleInput is what the server takes: keep as a JSON integer. */
export type ScheduleInput = { enabled: boolean; time: string; keep: number };

/** toScheduleInput turns checked form values into the request body. */
export function toScheduleInput(v: ScheduleValues): ScheduleInput {
  return { enabled: v.enabled, time: v.time, keep: Number(v.keep) };
}

/** useSaveSchedule saves the schedule (PUT /api/admin/backups). */
export function useSaveSchedule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: ScheduleInput; idempotencyKey: string }) =>
      apiRequest<{ message: string; schedule: BackupSchedule }>("PUT", BACKUPS_URL, input, { idempotencyKey }),
    onSettled: () => afterWrite(qc, "backups"),
  });
}

/** useBackupNow makes a backup now (POST /api/admin/backups). */
export function useBackupNow() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey }: { idempotencyKey: string }) =>
      apiRequest<{ message: string; backup: Backup }>("POST", BACKUPS_URL, {}, { idempotencyKey }),
    onSettled: () => afterWrite(qc, "backups"),
  });
}

/** formatSize is a byte count for people (KB, MB, GB). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
