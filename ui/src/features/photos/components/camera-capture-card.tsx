import { PhotoCard } from "@/features/photos/components/photo-card";
import { Lazy, loadable } from "@/lib/loadable";

const cameraCapture = loadable(() => import("@/features/photos/components/camera-capture").then((m) => m.default));

/**
 * CameraCaptureCard is the camera capture card; the camera code loads after the first screen
 * is shown (below it on a phone: lib/first-screen-shown.ts).
 */
export function CameraCaptureCard() {
  return (
    <PhotoCard titleId="camera-title" title="Camera Capture" description="Photograph a broken scooter with your phone.">
      <Lazy of={cameraCapture} afterFirstScreen fallback={<p className="text-sm text-muted-foreground">Loading camera…</p>} />
    </PhotoCard>
  );
}
