import * as React from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

const CameraCapture = React.lazy(() => import("@/features/photos/components/camera-capture"));

/** CameraCaptureCard is the camera capture card; the camera code loads only when it renders. */
export function CameraCaptureCard() {
  return (
    <Card role="region" aria-labelledby="camera-title">
      <CardHeader>
        <CardTitle id="camera-title">Camera Capture</CardTitle>
        <CardDescription>Photograph a broken scooter with your phone.</CardDescription>
      </CardHeader>
      <CardContent>
        <React.Suspense fallback={<p className="text-sm text-muted-foreground">Loading camera…</p>}>
          <CameraCapture />
        </React.Suspense>
      </CardContent>
    </Card>
  );
}
