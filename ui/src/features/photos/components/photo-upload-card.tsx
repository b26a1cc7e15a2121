import { UploadIcon } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { UploadQueueList, useUploadQueue } from "@/features/photos/components/upload-queue";
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
    <Card role="region" aria-labelledby="photo-upload-title">
      <CardHeader>
        <CardTitle id="photo-upload-title">Send Photos</CardTitle>
        <CardDescription>Photos of broken scooters for corporate review.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
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
        <UploadQueueList items={q.items} onRetry={(item) => void q.send(notes, [item])} onRemove={q.remove} />
        <div className="space-y-1.5">
          <Label htmlFor="photo-notes">Notes</Label>
          <Textarea id="photo-notes" value={notes} onChange={(e) => setNotes(e.target.value)} placeholder="What is broken? (optional)" />
        </div>
        <Button onClick={() => void onSend()} disabled={q.busy} className="w-full sm:w-auto">
          <UploadIcon aria-hidden /> Upload Photos
        </Button>
      </CardContent>
    </Card>
  );
}
