import { useQueryClient } from "@tanstack/react-query";
import { RotateCcwIcon, UploadIcon, XIcon } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { photoAction } from "@/features/photos/api/photos";
import { submit } from "@/features/outbox/api/outbox";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { afterWrite } from "@/lib/invalidation";

/** QueuedFile is one file waiting, uploading, sent or failed. */
export type QueuedFile = {
  key: string;
  file: File;
  /** queued: kept in the outbox (no network now), sent later with the rest of the queue. */
  status: "ready" | "uploading" | "done" | "queued" | "failed";
  progress: number;
  error?: string;
};

let seq = 0;

/**
 * useUploadQueue keeps the files of one card and uploads them with their progress; a failed
 * file stays in the list to be retried without touching the others.
 */
export function useUploadQueue() {
  const qc = useQueryClient();
  const [items, setItems] = React.useState<QueuedFile[]>([]);
  const patch = (key: string, p: Partial<QueuedFile>) => setItems((xs) => xs.map((x) => (x.key === key ? { ...x, ...p } : x)));

  const add = (files: File[]) =>
    setItems((xs) => [...xs, ...files.map((file) => ({ key: `f${++seq}`, file, status: "ready" as const, progress: 0 }))]);
  const remove = (key: string) => setItems((xs) => xs.filter((x) => x.key !== key));

  // Each photo goes through the outbox (DESIGN.md §12): its bytes are stored on the phone
  // with the claim's key and the tap's time, then upload URL, PUT and claim.
  const sendOne = async (item: QueuedFile, notes: string): Promise<boolean> => {
    patch(item.key, { status: "uploading", progress: 0, error: undefined });
    const trimmed = notes.trim();
    let outcome: Awaited<ReturnType<typeof submit>>;
    try {
      outcome = await submit(photoAction.kind, { filename: item.file.name, notes: trimmed }, { blob: item.file });
    } catch (error) {
      outcome = { status: "refused", error };
    }
    if (outcome.status === "sent") {
      patch(item.key, { status: "done", progress: 1 });
      return true;
    }
    if (outcome.status === "queued") {
      patch(item.key, { status: "queued", progress: 0 });
      toast({ title: "Photo saved on this phone", description: "It will be sent when the connection returns." });
      return false;
    }
    const message = errorMessage(outcome.error, outcome.error instanceof Error ? outcome.error.message : "Upload failed");
    patch(item.key, { status: "failed", error: message });
    toast({ title: "Upload failed", description: message, variant: "destructive" });
    return false;
  };

  /** send uploads every file not yet sent, one after another; it returns how many were sent. */
  const send = async (notes: string, only?: QueuedFile[]): Promise<number> => {
    const todo = (only ?? items).filter((x) => x.status === "ready" || x.status === "failed");
    let ok = 0;
    for (const item of todo) if (await sendOne(item, notes)) ok++;
    if (ok > 0) await afterWrite(qc, photoAction.refreshes);
    return ok;
  };

  const busy = items.some((x) => x.status === "uploading");
  const pending = items.filter((x) => x.status === "ready" || x.status === "failed").length;
  const clearDone = () => setItems((xs) => xs.filter((x) => x.status !== "done" && x.status !== "queued"));
  return { items, add, remove, send, busy, pending, clearDone };
}

/** UploadQueueList lists a card's files with a progress bar each and Retry for a failed one. */
export function UploadQueueList({
  items,
  onRetry,
  onRemove,
}: {
  items: QueuedFile[];
  onRetry: (item: QueuedFile) => void;
  onRemove: (key: string) => void;
}) {
  if (items.length === 0) return null;
  return (
    <ul className="space-y-2" aria-label="Files to upload">
      {items.map((item) => (
        <li key={item.key} className="rounded-md border p-2 text-sm">
          <div className="flex items-center justify-between gap-2">
            <span className="truncate">{item.file.name}</span>
            <span className="flex shrink-0 items-center gap-1">
              {item.status === "done" && <span className="text-xs text-green-700">Uploaded</span>}
              {item.status === "queued" && <span className="text-xs text-amber-800">Waiting to send</span>}
              {item.status === "failed" && (
                <Button size="sm" variant="outline" onClick={() => onRetry(item)} aria-label={`Retry ${item.file.name}`}>
                  <RotateCcwIcon aria-hidden /> Retry
                </Button>
              )}
              {item.status !== "uploading" && (
                <Button size="icon" variant="ghost" className="size-7" onClick={() => onRemove(item.key)} aria-label={`Remove ${item.file.name}`}>
                  <XIcon aria-hidden />
                </Button>
              )}
            </span>
          </div>
          <div
            role="progressbar"
            aria-label={`Upload progress of ${item.file.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(item.progress * 100)}
            className="mt-1 h-1.5 overflow-hidden rounded bg-muted"
          >
            <div
              className={item.status === "failed" ? "h-full bg-destructive" : "h-full bg-primary transition-[width]"}
              style={{ width: `${Math.round(item.progress * 100)}%` }}
            />
          </div>
          {item.error && <p className="mt-1 text-xs text-destructive">{item.error}</p>}
        </li>
      ))}
    </ul>
  );
}

/**
 * UploadQueueSend ends a photo card: its queued files (each retried or removed alone), the
 * notes sent with them, and the upload button saying label.
 */
export function UploadQueueSend({
  queue,
  notesId,
  notes,
  onNotes,
  onSend,
  label,
}: {
  queue: ReturnType<typeof useUploadQueue>;
  notesId: string;
  notes: string;
  onNotes: (notes: string) => void;
  onSend: () => Promise<void>;
  label: string;
}) {
  return (
    <>
      <UploadQueueList items={queue.items} onRetry={(item) => void queue.send(notes, [item])} onRemove={queue.remove} />
      <div className="space-y-1.5">
        <Label htmlFor={notesId}>Notes</Label>
        <Textarea id={notesId} value={notes} onChange={(e) => onNotes(e.target.value)} placeholder="What is broken? (optional)" />
      </div>
      <Button onClick={() => void onSend()} disabled={queue.busy} className="w-full sm:w-auto">
        <UploadIcon aria-hidden /> {label}
      </Button>
    </>
  );
}
