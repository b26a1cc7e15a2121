import { zodResolver } from "@hookform/resolvers/zod";
import { AlertTriangleIcon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import { CheckboxFormField } from "@/components/checkbox-form-field";
import { InputFormField } from "@/components/form-fields";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form } from "@/components/ui/form";
import {
  MSG_NEW_KEYS_REQUIRED,
  type ReplicationSettings,
  type ReplicationValues,
  lagText,
  replicationSchema,
  sameEndpoint,
  sourceText,
  useReplication,
  useSaveReplication,
} from "@/features/replication/api/replication";
import { toast } from "@/hooks/use-toast";
import { useUser } from "@/lib/auth";
import { formatDateTimeYear } from "@/lib/format";
import { newIdempotencyKey } from "@/lib/idempotency";
import { isAdminRole, isMasterAdmin } from "@/lib/user";
import { toastError } from "@/lib/toast-error";

/** SET_MARK is what a credential field shows when one is stored: the value itself never comes back. */
export const SET_MARK = "•••• set";

/**
 * ReplicationCard is the Continuous Replication block of /admin-system (DESIGN.md §13): on or
 * off, the target (no credentials), the lag and the last sync, and a warning when the lag
 * passes 60 s, uploads fail or the replica did not start. Admins see the status; a master
 * admin also gets the form that sets the replica (read-only when the server's flag or
 * environment sets it). Other roles do not see it.
 */
export function ReplicationCard() {
  const user = useUser();
  const role = user.data?.role;
  const status = useReplication(isAdminRole(role));
  const ids = React.useId();
  if (!isAdminRole(role)) return null;
  const s = status.data;
  return (
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader>
        <CardTitle id={`${ids}-title`}>Continuous Replication</CardTitle>
        <CardDescription>
          Every change to the database is copied off this machine within seconds, so a lost disk loses at most the last few seconds.
          A master admin sets the replica here, or the server sets it with <code>swapbay serve --replicate=URL</code> or{" "}
          <code>SWAPBAY_REPLICA_URL</code>; see README, &quot;Running in production&quot;.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        <div className="grid gap-3" aria-live="polite">
          {status.isPending ? (
            <p>Loading...</p>
          ) : status.isError || !s ? (
            <p className="text-destructive">Failed to load the replication status</p>
          ) : !s.enabled ? (
            <p>
              <span className="font-medium">Off.</span> Only the scheduled backups leave this machine.
            </p>
          ) : (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
              <dt className="text-muted-foreground">Status</dt>
              <dd className="font-medium">On</dd>
              <dt className="text-muted-foreground">Target</dt>
              <dd className="break-all font-mono text-xs">{s.target}</dd>
              <dt className="text-muted-foreground">Set by</dt>
              <dd>{sourceText(s.source)}</dd>
              <dt className="text-muted-foreground">Lag</dt>
              <dd>{lagText(s.lagSeconds)}</dd>
              <dt className="text-muted-foreground">Last sync</dt>
              <dd>{formatDateTimeYear(s.lastSync) || "Not yet"}</dd>
            </dl>
          )}
          {s?.warning && (
            <p role="alert" className="flex items-start gap-2 rounded-md border border-destructive/50 bg-destructive/10 p-3 text-destructive">
              <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
              <span>{s.warning}</span>
            </p>
          )}
        </div>
        {isMasterAdmin(role) && s?.settings && <ReplicationForm settings={s.settings} />}
      </CardContent>
    </Card>
  );
}

/** formValues are the form's values for the stored settings: credentials always start blank. */
function formValues(s: ReplicationSettings): ReplicationValues {
  return { enabled: s.enabled, url: s.url, accessKeyId: "", secretAccessKey: "" };
}

/**
 * ReplicationForm sets the replica (master admin): on/off, the URL, the S3 access key ID and
 * secret. A blank key or secret keeps the stored one while the endpoint and bucket stay (another
 * endpoint or bucket needs new keys); saving checks the replica and applies it at once. When the server's flag or environment sets the replica, the form is read-only.
 */
function ReplicationForm({ settings }: { settings: ReplicationSettings }) {
  const save = useSaveReplication();
  const ids = React.useId();
  const locked = Boolean(settings.setBy);
  const form = useForm<ReplicationValues>({
    resolver: zodResolver(replicationSchema),
    defaultValues: formValues(settings),
    values: formValues(settings),
    // what the admin already typed, and a message about it, survive the 10 s status poll
    resetOptions: { keepDirtyValues: true, keepErrors: true },
  });
  const url = form.watch("url");
  // the saved keys belong to the saved endpoint and bucket: another one needs its own keys
  const keysCleared = (settings.accessKeyIdSet || settings.secretAccessKeySet) && url.trim().startsWith("s3:") && !sameEndpoint(settings.url, url);
  const onSubmit = form.handleSubmit((values) => {
    if (keysCleared && values.enabled && (values.accessKeyId === "" || values.secretAccessKey === "")) {
      form.setError(values.accessKeyId === "" ? "accessKeyId" : "secretAccessKey", { message: MSG_NEW_KEYS_REQUIRED }, { shouldFocus: true });
      return;
    }
    save.mutate(
      { values, idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: (res) => {
          if (res?.settings) form.reset(formValues(res.settings));
          toast({ title: "Replication settings saved", description: res?.enabled ? `Replicating to ${res.target}` : "Replication is off" });
        },
        onError: (e) => toastError(e, "Failed to save the replication settings"),
      },
    );
  });
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} className="grid gap-4 border-t pt-4" noValidate aria-labelledby={`${ids}-form`}>
        <h3 id={`${ids}-form`} className="font-medium">
          Replica
        </h3>
        {locked && (
          <p className="text-muted-foreground">
            Set by the server&apos;s flag/environment (<code>{settings.setBy === "flag" ? "--replicate" : "SWAPBAY_REPLICA_URL"}</code>): change it
            there.
          </p>
        )}
        <fieldset disabled={locked || save.isPending} className="grid gap-4 sm:grid-cols-2">
          <CheckboxFormField control={form.control} name="enabled" label="Replicate continuously" className="flex items-center gap-2 sm:col-span-2" disabled={locked} />
          <InputFormField
            control={form.control}
            name="url"
            label="Replica URL"
            className="sm:col-span-2"
            placeholder="s3://bucket/path?endpoint=…&region=… or file:///dir"
            autoComplete="off"
            spellCheck={false}
            disabled={locked}
          />
          <InputFormField
            control={form.control}
            name="accessKeyId"
            label="Access Key ID"
            placeholder={settings.accessKeyIdSet && !keysCleared ? SET_MARK : ""}
            autoComplete="off"
            spellCheck={false}
            disabled={locked}
          />
          <InputFormField
            control={form.control}
            name="secretAccessKey"
            label="Secret Access Key"
            type="password"
            placeholder={settings.secretAccessKeySet && !keysCleared ? SET_MARK : ""}
            autoComplete="new-password"
            disabled={locked}
          />
          {keysCleared ? (
            <p role="status" className="sm:col-span-2">
              {MSG_NEW_KEYS_REQUIRED}.
            </p>
          ) : null}
          <p className="text-muted-foreground sm:col-span-2">
            For S3 only: a blank key or secret keeps the stored one while the endpoint and bucket stay the same; changing the endpoint or
            bucket clears the saved keys and needs new ones. A directory (file://) needs neither. Saving checks that the replica answers,
            then replicates to it at once.
          </p>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={locked || save.isPending}>
              {save.isPending ? "Checking the replica..." : "Save Replication Settings"}
            </Button>
          </div>
        </fieldset>
      </form>
    </Form>
  );
}
