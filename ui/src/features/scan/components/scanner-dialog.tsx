import { CircleCheck, CircleX, Flashlight, FlashlightOff } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { cn } from "@/lib/utils";
import { type Detector, createDetector, forcePolyfill } from "@/features/scan/utils/detector";
import { refusal, tick } from "@/features/scan/utils/feedback";
import { serialFromCode } from "@/lib/serial";

/** ScannerDialogProps are what the field hands its scanner. */
export type ScannerDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  label: string;
  /** count is the field's count line ("2 of 3 scanned"). */
  count: string;
  /** list is the field's list, shown under the camera. */
  list: React.ReactNode;
  /** onCode adds a scanned code's serial; it answers what happened. */
  onCode: (text: string) => CodeResult;
  /** onUnavailable is told on close when the camera could not be used: focus moves to typing. */
  onUnavailable: () => void;
};

/**
 * CodeResult is what adding a scanned code did: added, already listed, not a pack label, the
 * list full; or (issue 42 item 6) listed but refused by the rules for where it goes (refused:
 * the reason, in the server's words), or added with a note (a queued action names it already).
 */
export type CodeResult = "added" | "duplicate" | "wrong" | "full" | { refused: string } | { note: string };

/** Found is what the last code found did: added, already listed, not usable, or refused by the rules with why. */
type Found = { tone: "ok" | "info" | "bad" | "refused"; text: string };

/** foundOf is how the scanner shows result for serial. */
export function foundOf(result: CodeResult, serial: string | null): Found {
  if (typeof result === "object") return "refused" in result ? { tone: "refused", text: result.refused } : { tone: "ok", text: `Added ${serial} · ${result.note}` };
  switch (result) {
    case "added":
      return { tone: "ok", text: `Added ${serial}` };
    case "duplicate":
      return { tone: "info", text: `${serial} is already listed` };
    case "full":
      return { tone: "bad", text: "The list is full" };
    default:
      return { tone: "bad", text: "Not a SwapBay pack label" };
  }
}

/** resultName is a result's performance mark suffix (scan:code:added, …:refused). */
function resultName(r: CodeResult): string {
  return typeof r === "string" ? r : "refused" in r ? "refused" : "added";
}

const STARTING = "Starting the camera…";
const LOOKING = "Looking for a code…";

// performance marks for the bench (make bench reads scan:open → scan:code:added)
function mark(name: string) {
  try {
    performance.mark(name);
  } catch {
    // no User Timing here
  }
}

/** cameraMessage says why the camera cannot be used, and the way on. */
export function cameraMessage(e: unknown): string {
  const name = e instanceof DOMException ? e.name : "";
  if (name === "NotAllowedError" || name === "SecurityError")
    return "Camera permission denied. Allow the camera in the browser's settings, or type the serial instead.";
  if (name === "NotFoundError" || name === "OverconstrainedError") return "No camera found on this device. Type the serial instead.";
  if (name === "NotReadableError") return "The camera is in use by another app. Close it, or type the serial instead.";
  return "The camera is not available here. Type the serial instead.";
}

/**
 * ScannerDialog streams the back camera and adds every code it finds, one after another, with
 * a short vibration and a tick; duplicates are ignored and a code that is not a SwapBay label
 * is shown red with why. A pack the rules refuse for where it goes gets the refusal's own sound
 * and a red frame, with the server's reason. Done closes it and keeps the list.
 */
export function ScannerDialog({ open, onOpenChange, label, count, list, onCode, onUnavailable }: ScannerDialogProps) {
  const videoRef = React.useRef<HTMLVideoElement>(null);
  const doneRef = React.useRef<HTMLButtonElement>(null);
  const [status, setStatus] = React.useState(STARTING);
  const [found, setFound] = React.useState<Found | null>(null);
  const [unavailable, setUnavailable] = React.useState("");
  const [torch, setTorch] = React.useState<{ on: boolean; track: MediaStreamTrack } | null>(null);
  const onCodeRef = React.useRef(onCode);
  onCodeRef.current = onCode;

  React.useEffect(() => {
    if (!open) return;
    let stopped = false;
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let shown: HTMLVideoElement | null = null;
    const lastSeen = new Map<string, number>();
    setUnavailable("");
    setTorch(null);
    setStatus(STARTING);
    setFound(null);

    async function start() {
      let detector: Detector;
      mark("scan:open");
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new DOMException("no camera API", "NotSupportedError");
        const [s, d] = await Promise.all([
          navigator.mediaDevices
            .getUserMedia({
              audio: false,
              video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } },
            })
            .then((s) => (mark("scan:camera"), s)),
          createDetector(forcePolyfill()).then((d) => (mark(`scan:detector:${d.kind}`), d)),
        ]);
        stream = s;
        detector = d;
      } catch (e) {
        if (!stopped) setUnavailable(cameraMessage(e));
        return;
      }
      if (stopped) {
        stream.getTracks().forEach((t) => t.stop());
        return;
      }
      const video = videoRef.current;
      if (!video) return;
      shown = video;
      video.srcObject = stream;
      await video.play().catch(() => undefined);
      const track = stream.getVideoTracks()[0];
      const caps = (track?.getCapabilities?.() ?? {}) as MediaTrackCapabilities & { torch?: boolean };
      if (track && caps.torch) setTorch({ on: false, track });
      setStatus(LOOKING);
      mark("scan:looking");

      const loop = async () => {
        if (stopped) return;
        let codes: string[] = [];
        try {
          if (video.readyState >= 2) codes = await detector.detect(video);
        } catch {
          // a frame the decoder could not read: try the next
        }
        if (stopped) return;
        const now = performance.now();
        for (const code of codes) {
          // the same code in front of the camera is reported once, not every frame
          const seen = lastSeen.get(code);
          lastSeen.set(code, now);
          if (seen !== undefined && now - seen < 2000) continue;
          const r = onCodeRef.current(code);
          const name = resultName(r);
          mark(`scan:code:${name}`);
          if (name === "refused") refusal();
          else if (name === "added") tick();
          setFound(foundOf(r, serialFromCode(code)));
        }
        timer = setTimeout(() => void loop(), codes.length ? 150 : 60);
      };
      void loop();
    }
    void start();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
      if (shown) shown.srcObject = null;
    };
  }, [open]);

  async function toggleTorch() {
    if (!torch) return;
    const on = !torch.on;
    try {
      await torch.track.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] });
      setTorch({ ...torch, on });
    } catch {
      setTorch(null);
    }
  }

  return (
    // a phone on its side (landscape and short): camera and list side by side, the dialog as wide as the screen
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="flex max-h-[calc(100dvh-1rem)] flex-col gap-3 p-4 [@media(orientation:landscape)_and_(max-height:35rem)]:max-w-[calc(100%-1rem)] sm:max-w-lg"
        // focus starts on Done (not on a row's Remove, which Enter would press)
        onOpenAutoFocus={(e) => {
          e.preventDefault();
          doneRef.current?.focus();
        }}
        onCloseAutoFocus={(e) => {
          if (unavailable) {
            e.preventDefault();
            onUnavailable();
          }
        }}
      >
        <DialogHeader>
          <DialogTitle>Scan {label.toLowerCase()}</DialogTitle>
          <DialogDescription>Hold each pack's label in front of the camera. {count}.</DialogDescription>
        </DialogHeader>
        <div className="flex min-h-0 flex-col gap-3 overflow-y-auto [@media(orientation:landscape)_and_(max-height:35rem)]:flex-row">
          {unavailable ? (
            <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm font-medium text-destructive">
              {unavailable}
            </p>
          ) : (
            <div
              className={cn(
                "relative shrink-0 overflow-hidden rounded-md border-4 border-transparent bg-black [@media(orientation:landscape)_and_(max-height:35rem)]:w-1/2",
                found?.tone === "refused" && "border-destructive",
              )}
            >
              <video ref={videoRef} className="block aspect-[4/3] max-h-[45dvh] w-full object-cover [@media(orientation:landscape)_and_(max-height:35rem)]:max-h-[65dvh]" muted playsInline aria-label="Camera" />
              {torch && (
                <Button
                  type="button"
                  size="sm"
                  variant="secondary"
                  className="absolute right-2 bottom-2"
                  aria-pressed={torch.on}
                  onClick={() => void toggleTorch()}
                >
                  {torch.on ? <FlashlightOff aria-hidden /> : <Flashlight aria-hidden />}
                  Torch
                </Button>
              )}
            </div>
          )}
          <div className="flex min-w-0 flex-1 flex-col gap-2">
            {!unavailable && (
              <div role="status" className="flex flex-col gap-1 text-sm">
                <p className="text-muted-foreground">{status}</p>
                {found &&
                  (found.tone === "refused" || found.tone === "ok" ? (
                    <p
                      className={cn(
                        "flex items-start gap-2 rounded-md border p-2 font-medium",
                        found.tone === "refused" ? "border-destructive bg-destructive/10 text-destructive" : "border-emerald-700/40 bg-emerald-50 text-emerald-800",
                      )}
                    >
                      {found.tone === "refused" ? <CircleX aria-hidden className="mt-0.5 size-4 shrink-0" /> : <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0" />}
                      <span>
                        {found.tone === "refused" && <span className="font-semibold">Refused: </span>}
                        {found.text}
                      </span>
                    </p>
                  ) : (
                    <p className={cn(found.tone === "bad" ? "font-medium text-destructive" : "text-muted-foreground")}>{found.text}</p>
                  ))}
              </div>
            )}
            {list}
          </div>
        </div>
        <DialogFooter>
          <Button ref={doneRef} type="button" onClick={() => onOpenChange(false)}>
            {unavailable ? "Type instead" : "Done"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
