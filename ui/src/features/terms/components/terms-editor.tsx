import { zodResolver } from "@hookform/resolvers/zod";
import { CheckCircle2Icon, EyeIcon, FileTextIcon, PencilIcon, PlusIcon, ScrollTextIcon } from "lucide-react";
import * as React from "react";
import { useForm, type UseFormReturn } from "react-hook-form";
import { InputFormField } from "@/components/form-fields";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Form, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import {
  loadTemplate,
  useActivateVersion,
  useCreateVersion,
  useUpdateVersion,
  useVersions,
  type TermsVersion,
} from "@/features/terms/api/terms";
import { RichTextEditor } from "@/features/terms/components/rich-text-editor";
import { emptyVersion, SIGNED_VERSION_REASON, versionSchema, type VersionForm } from "@/features/terms/utils/version-form";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { formatDate } from "@/lib/format";
import { sanitizeTermsHtml } from "@/lib/terms-html";

/**
 * TermsEditor is /admin-system block 6, the Terms & Conditions Editor (spec part 2 §2): the
 * Create New Version card (with Load New 2025 Template) and every version with Preview, Edit
 * (inline; disabled with its reason once someone has signed it) and Activate. A refusal shows
 * the server's message in a destructive alert.
 */
export function TermsEditor() {
  const versions = useVersions();
  return (
    <Card role="region" aria-labelledby="terms-editor-title">
      <CardHeader>
        <CardTitle id="terms-editor-title" className="flex items-center gap-2">
          <ScrollTextIcon aria-hidden className="size-5 text-primary" />
          Terms & Conditions Editor
        </CardTitle>
        <CardDescription>
          Drivers sign the active version. A version somebody has signed cannot change: publish a new one instead.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <CreateVersion />
        <section aria-labelledby="terms-versions-title" className="grid gap-3">
          <h3 id="terms-versions-title" className="font-semibold">
            Versions
          </h3>
          {versions.isPending && <Skeleton className="h-24 w-full" />}
          {versions.isError && (
            <Alert variant="destructive">
              <AlertDescription>{errorMessage(versions.error, "Failed to load the terms versions")}</AlertDescription>
            </Alert>
          )}
          {versions.data?.length === 0 && <p className="text-sm text-muted-foreground">No terms versions yet.</p>}
          {versions.data?.map((v) => <VersionCard key={v.id} version={v} />)}
        </section>
      </CardContent>
    </Card>
  );
}

/** CreateVersion is the Create New Version form; Load New 2025 Template fills it in. */
function CreateVersion() {
  const create = useCreateVersion();
  const [loading, setLoading] = React.useState(false);
  const [loadError, setLoadError] = React.useState<string | null>(null);
  const form = useForm<VersionForm>({ resolver: zodResolver(versionSchema), defaultValues: emptyVersion() });

  const fillTemplate = async () => {
    setLoading(true);
    setLoadError(null);
    try {
      const t = await loadTemplate();
      if (t) {
        const current = form.getValues();
        form.reset({ version: current.version, effectiveDate: t.effectiveDate || current.effectiveDate, title: t.title, content: t.content });
      }
    } catch (error) {
      setLoadError(errorMessage(error, "Failed to load the template"));
    } finally {
      setLoading(false);
    }
  };

  const onSubmit = form.handleSubmit((v) =>
    create.mutate(v, {
      onSuccess: () => {
        toast({ title: "Terms version created", description: `Version ${v.version.trim()} is saved. Activate it to have drivers sign it.` });
        form.reset(emptyVersion());
      },
    }),
  );

  return (
    <section aria-labelledby="terms-create-title" className="grid gap-3 rounded-lg border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="terms-create-title" className="flex items-center gap-2 font-semibold">
          <PlusIcon aria-hidden className="size-4" /> Create New Version
        </h3>
        <Button type="button" variant="outline" size="sm" onClick={fillTemplate} disabled={loading || create.isPending}>
          {loading ? <Spinner label="Loading" /> : <FileTextIcon aria-hidden />}
          Load New 2025 Template
        </Button>
      </div>
      {loadError && (
        <Alert variant="destructive">
          <AlertDescription>{loadError}</AlertDescription>
        </Alert>
      )}
      <Form {...form}>
        <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-labelledby="terms-create-title">
          <VersionFields form={form} idPrefix="create" disabled={create.isPending} />
          {create.isError && <FailureAlert title="Failed to create the version" error={create.error} />}
          <div>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <Spinner label="Saving" />}
              Create Version
            </Button>
          </div>
        </form>
      </Form>
    </section>
  );
}

/** VersionFields are Version, Effective Date, Title and Content, for Create and Edit alike. */
function VersionFields({ form, idPrefix, disabled }: { form: UseFormReturn<VersionForm>; idPrefix: string; disabled: boolean }) {
  const contentLabel = `${idPrefix}-content-label`;
  return (
    <>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <InputFormField control={form.control} name="version" label="Version" placeholder="e.g. 2025.2" maxLength={50} autoComplete="off" disabled={disabled} />
        <InputFormField control={form.control} name="effectiveDate" label="Effective Date" type="date" disabled={disabled} />
        <InputFormField control={form.control} name="title" label="Title" maxLength={300} disabled={disabled} />
      </div>
      <FormField
        control={form.control}
        name="content"
        render={({ field, fieldState }) => (
          <FormItem>
            <FormLabel id={contentLabel}>Content</FormLabel>
            <RichTextEditor
              id={`${idPrefix}-content`}
              labelledBy={contentLabel}
              value={field.value}
              onChange={field.onChange}
              invalid={fieldState.invalid}
              disabled={disabled}
            />
            <FormMessage />
          </FormItem>
        )}
      />
    </>
  );
}

/** VersionCard shows one version, or edits it in place. */
function VersionCard({ version: v }: { version: TermsVersion }) {
  const [editing, setEditing] = React.useState(false);
  const [previewing, setPreviewing] = React.useState(false);
  const activate = useActivateVersion();
  const signed = v.signedCount > 0;
  const reasonId = `terms-${v.id}-signed`;

  const onActivate = () =>
    activate.mutate(v.id, {
      onSuccess: () => toast({ title: "Terms version activated", description: `Version ${v.version} is now the one drivers sign.` }),
    });

  return (
    <article aria-label={`Version ${v.version}`} className="grid gap-3 rounded-lg border p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-semibold">Version {v.version}</span>
            {v.isActive && (
              <Badge variant="success">
                <CheckCircle2Icon aria-hidden /> Active
              </Badge>
            )}
          </div>
          <p className="text-sm break-words">{v.title}</p>
          <p className="text-xs text-muted-foreground">
            Effective {formatDate(v.effectiveDate)} · {v.signedCount === 1 ? "1 signature" : `${v.signedCount} signatures`}
          </p>
        </div>
        {!editing && (
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => setPreviewing(true)}>
              <EyeIcon aria-hidden /> Preview
            </Button>
            <Button variant="outline" size="sm" onClick={() => setEditing(true)} disabled={signed} aria-describedby={signed ? reasonId : undefined}>
              <PencilIcon aria-hidden /> Edit
            </Button>
            {!v.isActive && (
              <Button size="sm" onClick={onActivate} disabled={activate.isPending}>
                {activate.isPending && <Spinner label="Activating" />}
                Activate
              </Button>
            )}
          </div>
        )}
      </div>
      {signed && !editing && (
        <p id={reasonId} className="text-xs text-muted-foreground">
          {SIGNED_VERSION_REASON}
        </p>
      )}
      {activate.isError && <FailureAlert title="Failed to activate the version" error={activate.error} />}
      {editing && <EditVersion version={v} onDone={() => setEditing(false)} />}
      <PreviewDialog version={v} open={previewing} onOpenChange={setPreviewing} />
    </article>
  );
}

/** EditVersion edits a version in place: Save or Cancel. */
function EditVersion({ version: v, onDone }: { version: TermsVersion; onDone: () => void }) {
  const update = useUpdateVersion();
  const form = useForm<VersionForm>({
    resolver: zodResolver(versionSchema),
    defaultValues: { version: v.version, effectiveDate: v.effectiveDate.slice(0, 10), title: v.title, content: v.content },
  });
  const onSubmit = form.handleSubmit((input) =>
    update.mutate(
      { id: v.id, ...input },
      {
        onSuccess: () => {
          toast({ title: "Terms version updated" });
          onDone();
        },
      },
    ),
  );
  return (
    <Form {...form}>
      <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label={`Edit version ${v.version}`}>
        <VersionFields form={form} idPrefix={`edit-${v.id}`} disabled={update.isPending} />
        {update.isError && <FailureAlert title="Failed to update the version" error={update.error} />}
        <div className="flex gap-2">
          <Button type="submit" disabled={update.isPending}>
            {update.isPending && <Spinner label="Saving" />}
            Save
          </Button>
          <Button type="button" variant="outline" onClick={onDone} disabled={update.isPending}>
            Cancel
          </Button>
        </div>
      </form>
    </Form>
  );
}

/** PreviewDialog shows a version as a driver will read it (sanitised again in the browser). */
function PreviewDialog({ version: v, open, onOpenChange }: { version: TermsVersion; open: boolean; onOpenChange: (open: boolean) => void }) {
  const html = React.useMemo(() => (open ? sanitizeTermsHtml(v.content) : ""), [open, v.content]);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>{v.title}</DialogTitle>
          <DialogDescription>
            Version {v.version} · effective {formatDate(v.effectiveDate)}
          </DialogDescription>
        </DialogHeader>
        <div className="terms-content text-sm" dangerouslySetInnerHTML={{ __html: html }} />
      </DialogContent>
    </Dialog>
  );
}

/** FailureAlert is the destructive alert with the server's message. */
function FailureAlert({ title, error }: { title: string; error: unknown }) {
  return (
    <Alert variant="destructive">
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>{errorMessage(error, "Please try again.")}</AlertDescription>
    </Alert>
  );
}
