import { zodResolver } from "@hookform/resolvers/zod";
import { CameraIcon, XIcon } from "lucide-react";
import * as React from "react";
import { useForm, useWatch } from "react-hook-form";
import { DialogForm } from "@/components/dialog-form";
import { InputFormField } from "@/components/form-fields";
import { TextareaFormField } from "@/components/textarea-form-field";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { usePacks } from "@/features/packs/api/get-packs";
import {
  MAX_DAMAGE_PHOTOS,
  damageAction,
  damageSchema,
  damagePhotos,
  type DamageAnswer,
  type DamageValues,
} from "@/features/packs/api/report-damage";
import { toast } from "@/hooks/use-toast";
import { ApiError, errorMessage } from "@/lib/api-client";
import { useOutboxSubmit } from "@/features/outbox/hooks/use-submit";

/** ReportDamageDialogProps: open state, and the pack when the dialog is opened from its page. */
export type ReportDamageDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; serial?: string };

type Picked = { id: number; file: File; url: string };
let picked = 0;

/**
 * ReportDamageDialog reports a damaged pack (DESIGN.md §14, issue 37 item 2): the pack (fixed
 * when opened from its page; else typed, or one tap on a pack the driver holds), what is wrong
 * and up to 10 photos from the phone's camera or files. It goes through the outbox: without a
 * network the report and its photos wait on the phone and are sent, photos first, when the
 * connection returns. The server quarantines the pack.
 */
export function ReportDamageDialog({ open, onOpenChange, serial }: ReportDamageDialogProps) {
  const form = useForm<DamageValues>({ resolver: zodResolver(damageSchema), defaultValues: { serial: serial ?? "", note: "" } });
  const report = useOutboxSubmit();
  const [files, setFiles] = React.useState<Picked[]>([]);
  const [problem, setProblem] = React.useState<string | null>(null);
  const fileInput = React.useId();
  const camera = React.useRef<HTMLInputElement>(null);
  const takePhoto = React.useRef<HTMLButtonElement>(null);
  const chosenSerial = useWatch({ control: form.control, name: "serial" });
  const close = () => {
    for (const f of files) URL.revokeObjectURL(f.url);
    setFiles([]);
    setProblem(null);
    form.reset({ serial: serial ?? "", note: "" });
    onOpenChange(false);
  };
  React.useEffect(() => () => files.forEach((f) => URL.revokeObjectURL(f.url)), [files]);

  const addFiles = (list: FileList | null) => {
    const images = [...(list ?? [])].filter((f) => f.type.startsWith("image/"));
    setFiles((old) => {
      const room = MAX_DAMAGE_PHOTOS - old.length;
      if (images.length > room) setProblem(`At most ${MAX_DAMAGE_PHOTOS} photos per report`);
      return [...old, ...images.slice(0, Math.max(0, room)).map((file) => ({ id: ++picked, file, url: URL.createObjectURL(file) }))];
    });
  };

  const onSubmit = form.handleSubmit(async (values) => {
    if (report.isPending) return;
    setProblem(null);
    // the photos are stored with the report, before it, in one transaction
    const { parts, photoKeys } = damagePhotos(values.serial, values.note, files.map((f) => f.file));
    await report.run(damageAction.kind, { serial: values.serial, note: values.note, photoKeys }, {
      parts,
      onSent: (answer) => {
        toast({ title: (answer as DamageAnswer | null)?.message || `Pack ${values.serial} reported damaged` });
        close();
      },
      onQueued: close,
      // the server's refusal, or the phone's (the outbox full, storage unavailable)
      onRefused: (e) => setProblem(e instanceof ApiError || !(e instanceof Error) ? errorMessage(e, "Could not report the damage") : e.message),
    });
  });

  const busy = report.isPending;
  return (
    <Dialog open={open} onOpenChange={(o) => (o ? onOpenChange(true) : close())}>
      <DialogContent className="grid-cols-[minmax(0,1fr)]">
        <DialogHeader>
          <DialogTitle>Report a damaged pack</DialogTitle>
          <DialogDescription>
            Swollen, cracked, wet, hot or smelling? Say what you see and add photos. The pack is taken out of service until the bay checks it.
          </DialogDescription>
        </DialogHeader>
        <DialogForm
          form={form}
          aria-label="Damage report"
          onSubmit={(e) => void onSubmit(e)}
          className="grid min-w-0 gap-4"
          onCancel={close}
          submit={
            <Button type="submit" variant="destructive" aria-disabled={busy || undefined}>
              {busy ? "Sending..." : "Send report"}
            </Button>
          }
        >
          {serial ? (
            <p className="text-sm">
              Pack <span className="font-mono font-semibold">{serial}</span>
            </p>
          ) : (
            <>
              <InputFormField control={form.control} name="serial" label="Pack serial" placeholder="SWB-000123" autoComplete="off" autoCapitalize="characters" />
              <HeldPackChoices chosen={chosenSerial} onPick={(s) => form.setValue("serial", s, { shouldValidate: true })} />
            </>
          )}
          <TextareaFormField control={form.control} name="note" label="What is wrong" rows={3} maxLength={2000} placeholder="The case is swollen on one side" />
          <div className="grid min-w-0 gap-2">
            <Label htmlFor={fileInput}>Photos (up to {MAX_DAMAGE_PHOTOS})</Label>
            <input
              id={fileInput}
              type="file"
              accept="image/jpeg,image/png,image/webp"
              multiple
              className="block w-full min-w-0 text-sm file:mr-3 file:rounded-md file:border file:bg-background file:px-3 file:py-1.5"
              onChange={(e) => {
                addFiles(e.target.files);
                e.target.value = "";
              }}
            />
            {/* the phone's camera straight away (the field above also offers the gallery) */}
            <input
              ref={camera}
              type="file"
              accept="image/jpeg,image/png,image/webp"
              capture="environment"
              tabIndex={-1}
              aria-hidden
              className="hidden"
              onChange={(e) => {
                addFiles(e.target.files);
                e.target.value = "";
              }}
            />
            <Button ref={takePhoto} type="button" variant="outline" className="w-fit" onClick={() => camera.current?.click()}>
              <CameraIcon aria-hidden />
              Take a photo
            </Button>
            {files.length > 0 && (
              <ul aria-label="Photos to send" className="flex flex-wrap gap-2">
                {files.map((f) => (
                  <li key={f.id} className="relative">
                    <img src={f.url} alt={f.file.name} className="size-16 rounded-md border object-cover" />
                    <Button
                      type="button"
                      size="icon"
                      variant="secondary"
                      className="absolute -top-2 -right-2 size-6 rounded-full"
                      aria-label={`Remove ${f.file.name}`}
                      onClick={(e) => {
                        // the button goes with its photo: focus moves to the next photo's (or the
                        // previous one's, or Take a photo), not out of the dialog to <body>
                        const li = e.currentTarget.closest("li");
                        const next = (li?.nextElementSibling ?? li?.previousElementSibling)?.querySelector("button");
                        (next ?? takePhoto.current)?.focus();
                        URL.revokeObjectURL(f.url);
                        setFiles((old) => old.filter((x) => x.id !== f.id));
                      }}
                    >
                      <XIcon aria-hidden />
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </div>
          {problem && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {problem}
            </p>
          )}
        </DialogForm>
      </DialogContent>
    </Dialog>
  );
}

/** HeldPackChoices lists the packs the caller holds (a driver's GET /api/packs) to pick one with a tap. */
function HeldPackChoices({ chosen, onPick }: { chosen: string; onPick: (serial: string) => void }) {
  const { data } = usePacks({});
  const held = data?.packs ?? [];
  if (held.length === 0) return null;
  return (
    <div role="group" aria-label="Packs you hold" className="flex flex-wrap gap-2">
      {held.slice(0, 12).map((p) => (
        <Button
          key={p.id}
          type="button"
          size="sm"
          variant={chosen.trim().toUpperCase() === p.serial ? "default" : "outline"}
          aria-pressed={chosen.trim().toUpperCase() === p.serial}
          className="font-mono"
          onClick={() => onPick(p.serial)}
        >
          {p.serial}
        </Button>
      ))}
    </div>
  );
}
