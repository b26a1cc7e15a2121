import * as React from "react";
import { Label } from "@/components/ui/label";
import { PhotoCard } from "@/features/photos/components/photo-card";
import { UploadQueueSend, useUploadQueue } from "@/features/photos/components/upload-queue";
import { toast } from "@/hooks/use-toast";

/** PhotoUploadCard picks image files, takes notes and uploads them with a progress bar each. */
export function PhotoUploadCard() {
  const q = useUploadQueue();
  const [notes, setNotes] = React.useState("");
  const input = React.useRef<HTMLInputElement>(null);
  const onSend = async () => {
    if (q.pending === 0) {
      toast({ title: "No files selected", description: "Please select files to upload", variant: "destructive" });
      return;
    }
    const sent = await q.send(notes);
    if (sent > 0 && !q.items.some((x) => x.status === "failed")) setNotes("");
  };
  return (
    <PhotoCard titleId="photo-upload-title" title="Send Photos" description="Photos of broken scooters for corporate review." contentClassName="space-y-3">
      <div className="space-y-1.5">
        <Label htmlFor="photo-files">Photos</Label>
        <input
          ref={input}
          id="photo-files"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          multiple
          className="block w-full text-sm file:mr-3 file:rounded-md file:border file:bg-background file:px-3 file:py-1.5"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])].filter((f) => f.type.startsWith("image/"));
            q.add(files);
            e.target.value = "";
          }}
        />
      </div>
      <UploadQueueSend queue={q} notesId="photo-notes" notes={notes} onNotes={setNotes} onSend={onSend} label="Upload Photos" />
    </PhotoCard>
  );
}
