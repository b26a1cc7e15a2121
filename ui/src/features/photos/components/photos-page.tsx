import { CameraCaptureCard } from "@/features/photos/components/camera-capture-card";
import { PhotoGallery } from "@/features/photos/components/photo-gallery";
import { PhotoUploadCard } from "@/features/photos/components/photo-upload-card";
import { usePhotos } from "@/features/photos/api/photos";
import { groupByUploader } from "@/features/photos/utils/group";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";

/** PhotoStats is the Photos page's stats: photos, uploaders and duplicates. */
export function PhotoStats() {
  const { data = [] } = usePhotos();
  const stats = [
    { label: "Total Photos", value: data.length },
    { label: "Uploaders", value: groupByUploader(data).length },
    { label: "Duplicates", value: data.filter((p) => p.duplicateOf).length },
  ];
  return (
    <div className="grid grid-cols-3 gap-3">
      {stats.map((s) => (
        <Card key={s.label} className="gap-1 py-3">
          <CardHeader className="px-3">
            <CardTitle className="text-xs font-medium text-muted-foreground">{s.label}</CardTitle>
          </CardHeader>
          <CardContent className="px-3 text-2xl font-bold">{s.value}</CardContent>
        </Card>
      ))}
    </div>
  );
}

/** PhotosPage is /admin-photos: stats, camera capture, photo upload and the gallery. */
export function PhotosPage({ canDelete }: { canDelete: boolean }) {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold tracking-tight">Photos</h1>
      <PhotoStats />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <CameraCaptureCard />
        <PhotoUploadCard />
      </div>
      <PhotoGallery canDelete={canDelete} />
    </div>
  );
}
