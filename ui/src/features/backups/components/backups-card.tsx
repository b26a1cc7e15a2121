import { zodResolver } from "@hookform/resolvers/zod";
import { ArchiveIcon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import { CheckboxFormField } from "@/components/checkbox-form-field";
import { InputFormField } from "@/components/form-fields";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form } from "@/components/ui/form";
import {
  type ScheduleValues,
  formatSize,
  scheduleSchema,
  toScheduleInput,
  useBackupNow,
  useBackups,
  useSaveSchedule,
} from "@/features/backups/api/backups";
import { toast } from "@/hooks/use-toast";
import { formatDateTimeYear } from "@/lib/format";
import { newIdempotencyKey } from "@/lib/idempotency";
import { toastError } from "@/lib/toast-error";

/**
 * BackupsCard is the Scheduled Backups block of /admin-system (DESIGN.md §11): the daily time
 * (in the operation's time zone) and how many backups to keep, the last backup's time and size,
 * the stored backups, and Back Up Now. S3 upload is set in PocketBase's settings at /_/.
 */
export function BackupsCard() {
  const backups = useBackups();
  const save = useSaveSchedule();
  const now = useBackupNow();
  const ids = React.useId();
  const form = useForm<ScheduleValues>({
    resolver: zodResolver(scheduleSchema),
    values: backups.data
      ? { enabled: backups.data.schedule.enabled, time: backups.data.schedule.time || "03:00", keep: String(backups.data.schedule.keep || 7) }
      : undefined,
    defaultValues: { enabled: true, time: "03:00", keep: "7" },
    // what the admin already typed, and a message about it, survive the stored schedule arriving or changing
    resetOptions: { keepDirtyValues: true, keepErrors: true },
  });

  const onSubmit = form.handleSubmit((v) =>
    save.mutate(
      { input: toScheduleInput(v), idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: (res) => toast({ title: res?.message || "Backup schedule saved" }),
        onError: (e) => toastError(e, "Failed to save the backup schedule"),
      },
    ),
  );
  const backUpNow = () =>
    now.mutate(
      { idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: (res) => toast({ title: res?.message || "Backup created", description: res?.backup?.name }),
        onError: (e) => toastError(e, "Failed to create the backup"),
      },
    );

  const data = backups.data;
  return (
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader>
        <CardTitle id={`${ids}-title`}>Scheduled Backups</CardTitle>
        <CardDescription>
          A consistent copy of the database and stored files, taken daily in the operation&apos;s time zone. Uploading to
          S3-compatible storage is set in PocketBase&apos;s settings at /_/.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <p className="text-sm" aria-live="polite">
          {backups.isPending
            ? "Loading..."
            : data?.last
              ? `Last backup: ${formatDateTimeYear(data.last.modified)} · ${formatSize(data.last.size)}`
              : "No backup yet."}
          {data?.schedule.s3 ? " Stored on S3." : ""}
        </p>
        {data?.schedule.custom && (
          <p className="text-sm text-muted-foreground">
            A custom schedule is set at /_/: <code>{data.schedule.custom}</code>. Saving here replaces it with a daily time.
          </p>
        )}
        <Form {...form}>
          <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-[auto_1fr_1fr] sm:items-start" noValidate>
            <CheckboxFormField control={form.control} name="enabled" label="Daily backups on" className="flex items-center gap-2 sm:pt-7" />
            <InputFormField control={form.control} name="time" label="Backup Time" type="time" />
            <InputFormField control={form.control} name="keep" label="Backups to Keep" inputMode="numeric" />
            <div className="flex flex-wrap gap-2 sm:col-span-3">
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? "Saving..." : "Save Schedule"}
              </Button>
              <Button type="button" variant="outline" onClick={backUpNow} disabled={now.isPending}>
                <ArchiveIcon aria-hidden />
                {now.isPending ? "Backing up..." : "Back Up Now"}
              </Button>
            </div>
          </form>
        </Form>
        {data && data.backups.length > 0 && (
          <ul className="grid gap-1 text-sm" aria-label="Stored backups">
            {data.backups.slice(0, 10).map((b) => (
              <li key={b.name} className="flex flex-wrap justify-between gap-2 border-b py-1 last:border-0">
                <span className="break-all font-mono text-xs">{b.name}</span>
                <span className="text-muted-foreground">
                  {formatDateTimeYear(b.modified)} · {formatSize(b.size)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
