import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Lazy, loadable } from "@/lib/loadable";

const cameraCapture = loadable(() => import("@/features/photos/components/camera-capture").then((m) => m.default));

/**
 * CameraCaptureCard is the camera capture card; the camera code loads after the first screen
 * is shown (below it on a phone: lib/first-screen-shown.ts).
 */
export function CameraCaptureCard() {
  return (
    <Card role="region" aria-labelledby="camera-title">
      <CardHeader>
        <CardTitle id="camera-title">Camera Capture</CardTitle>
        <CardDescription>Photograph a broken scooter with your phone.</CardDescription>
      </CardHeader>
      <CardContent>
        <Lazy of={cameraCapture} afterFirstScreen fallback={<p className="text-sm text-muted-foreground">Loading camera…</p>} />
      </CardContent>
    </Card>
  );
}
