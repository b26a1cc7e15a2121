import { CameraIcon } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { UploadQueueSend, useUploadQueue } from "@/features/photos/components/upload-queue";
import { timestampedName } from "@/features/photos/utils/group";
import { toast } from "@/hooks/use-toast";

/** CAMERA_QUALITY is the JPEG quality of captures (spec part 2 §9: 80). */
export const CAMERA_QUALITY = 0.8;

/**
 * CameraCapture runs the phone camera (getUserMedia): each Take Photo adds a JPEG at quality
 * 80 named with a timestamp; the photos are uploaded with the notes, a progress bar each.
 * Loaded lazily by CameraCaptureCard so only the screens that use it carry the camera code.
 */
export default function CameraCapture() {
  const video = React.useRef<HTMLVideoElement>(null);
  const stream = React.useRef<MediaStream | null>(null);
  const [active, setActive] = React.useState(false);
  const [notes, setNotes] = React.useState("");
  const q = useUploadQueue();

  const stop = React.useCallback(() => {
    stream.current?.getTracks().forEach((t) => t.stop());
    stream.current = null;
    setActive(false);
  }, []);
  React.useEffect(() => stop, [stop]);

  const start = async () => {
    try {
      const s = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
      stream.current = s;
      if (video.current) {
        video.current.srcObject = s;
        await video.current.play().catch(() => undefined);
      }
      setActive(true);
    } catch {
      toast({ title: "Camera error", description: "Could not access camera. Please check permissions.", variant: "destructive" });
    }
  };

  const take = () => {
    const v = video.current;
    if (!v || !v.videoWidth) return;
    const canvas = document.createElement("canvas");
    canvas.width = v.videoWidth;
    canvas.height = v.videoHeight;
    canvas.getContext("2d")?.drawImage(v, 0, 0);
    canvas.toBlob(
      (blob) => {
        if (blob) q.add([new File([blob], timestampedName(new Date()), { type: "image/jpeg" })]);
      },
      "image/jpeg",
      CAMERA_QUALITY,
    );
  };

  const onSend = async () => {
    if (q.pending === 0) {
      toast({ title: "No photos", description: "Please take some photos first", variant: "destructive" });
      return;
    }
    const sent = await q.send(notes);
    if (sent > 0) setNotes("");
  };

  return (
    <div className="space-y-3">
      <video ref={video} playsInline muted aria-label="Camera preview" className={active ? "w-full rounded-md bg-black" : "hidden"} />
      <div className="flex flex-wrap gap-2">
        {active ? (
          <>
            <Button onClick={take}>
              <CameraIcon aria-hidden /> Take Photo
            </Button>
            <Button variant="outline" onClick={stop}>
              Stop Camera
            </Button>
          </>
        ) : (
          <Button variant="outline" onClick={() => void start()}>
            <CameraIcon aria-hidden /> Start Camera
          </Button>
        )}
      </div>
      <UploadQueueSend
        queue={q}
        notesId="camera-notes"
        notes={notes}
        onNotes={setNotes}
        onSend={onSend}
        label={q.pending > 0 ? `Upload ${q.pending} Photo(s)` : "Upload Photos"}
      />
    </div>
  );
}
