import { CameraIcon, ChevronLeftIcon, ChevronRightIcon, Trash2Icon } from "lucide-react";
import * as React from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { photoImageUrl, useDeletePhoto, useMassDeletePhotos, usePhotos } from "@/features/photos/api/photos";
import { groupByUploader, photoCountLabel, uploaderName } from "@/features/photos/utils/group";
import { formatDateTimeYear } from "@/lib/format";

/** PhotoGalleryProps: canDelete shows checkboxes, select all and the delete buttons. */
export type PhotoGalleryProps = { canDelete: boolean };

/**
 * PhotoGallery is 'Broken Scooter Photos' (spec part 2 §2): photos grouped by uploader,
 * newest first, in a 3/4/6-column grid of thumbnails; clicking one opens a large view with
 * its notes (arrow keys move between photos). Reviewers get select all, per-photo checkboxes,
 * a delete button per photo and 'Delete N', each behind a confirmation.
 */
export function PhotoGallery({ canDelete }: PhotoGalleryProps) {
  const photos = usePhotos();
  const del = useDeletePhoto();
  const massDel = useMassDeletePhotos();
  const list = React.useMemo(() => photos.data ?? [], [photos.data]);
  const groups = React.useMemo(() => groupByUploader(list), [list]);
  const ordered = React.useMemo(() => groups.flatMap((g) => g.photos), [groups]);
  const [selected, setSelected] = React.useState<Set<string>>(new Set());
  const [open, setOpen] = React.useState<number | null>(null);
  const [confirm, setConfirm] = React.useState<{ ids: string[] } | null>(null);

  // drop selections of photos that are gone
  React.useEffect(() => {
    setSelected((s) => {
      const ids = new Set(list.map((p) => p.id));
      const next = new Set([...s].filter((id) => ids.has(id)));
      return next.size === s.size ? s : next;
    });
  }, [list]);

  const allSelected = list.length > 0 && selected.size === list.length;
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const onConfirm = () => {
    if (!confirm) return;
    const ids = confirm.ids;
    setConfirm(null);
    const [only] = ids;
    if (ids.length === 1 && only) del.mutate(only, { onSuccess: () => setOpen(null) });
    else massDel.mutate(ids, { onSuccess: () => setSelected(new Set()) });
  };

  const current = open === null ? undefined : ordered[open];
  const move = (step: number) => {
    if (open === null || ordered.length === 0) return;
    setOpen((open + step + ordered.length) % ordered.length);
  };

  return (
    <Card role="region" aria-labelledby="photos-title">
      <CardHeader className="flex flex-wrap items-start justify-between gap-3 sm:flex-row">
        <div className="space-y-1.5">
          <CardTitle id="photos-title">Broken Scooter Photos</CardTitle>
          <CardDescription>{photoCountLabel(list.length)}</CardDescription>
        </div>
        {canDelete && list.length > 0 && (
          <div className="flex flex-wrap items-center gap-3">
            <label className="flex items-center gap-2 text-sm">
              <Checkbox
                checked={allSelected}
                onCheckedChange={(v) => setSelected(v === true ? new Set(list.map((p) => p.id)) : new Set())}
                aria-label="Select all photos"
              />
              Select all
            </label>
            <Button
              variant="destructive"
              size="sm"
              disabled={selected.size === 0 || massDel.isPending}
              onClick={() => setConfirm({ ids: [...selected] })}
            >
              <Trash2Icon aria-hidden /> Delete {selected.size}
            </Button>
          </div>
        )}
      </CardHeader>
      <CardContent>
        {photos.isPending ? (
          <p className="py-8 text-center text-sm text-muted-foreground">Loading photos…</p>
        ) : list.length === 0 ? (
          <div className="flex flex-col items-center gap-2 py-8 text-center text-muted-foreground">
            <CameraIcon aria-hidden className="size-10" />
            <p>No photos uploaded yet. Photos from drivers will appear here.</p>
          </div>
        ) : (
          <div className="space-y-6">
            {groups.map((g) => (
              <section key={g.uploaderId} aria-label={`Photos from ${g.name}`} className="space-y-2">
                <h3 className="text-sm font-semibold">
                  {g.name} <span className="font-normal text-muted-foreground">· {photoCountLabel(g.photos.length)}</span>
                </h3>
                <ul className="grid grid-cols-3 gap-2 md:grid-cols-4 xl:grid-cols-6">
                  {g.photos.map((p) => (
                    <li key={p.id} className="relative overflow-hidden rounded-md border bg-muted/30">
                      <button
                        type="button"
                        className="block w-full text-left"
                        onClick={() => setOpen(ordered.findIndex((o) => o.id === p.id))}
                        aria-haspopup="dialog"
                      >
                        {/* the button is named by the file name, date and note it shows (SC 2.5.3): the thumbnail adds no words */}
                        <img
                          src={photoImageUrl(p.id, true)}
                          alt=""
                          loading="lazy"
                          className="aspect-square w-full object-cover"
                        />
                        <div className="space-y-0.5 p-1.5 text-xs">
                          <p className="truncate font-medium">{p.filename}</p>
                          <p className="truncate text-muted-foreground">{formatDateTimeYear(p.uploadedAt)}</p>
                          {p.notes && <p className="line-clamp-2">{p.notes}</p>}
                        </div>
                      </button>
                      {p.duplicateOf && (
                        <Badge variant="secondary" className="absolute top-1 right-1">
                          duplicate
                        </Badge>
                      )}
                      {canDelete && (
                        <>
                          <Checkbox
                            className="absolute top-1.5 left-1.5 size-6 bg-background"
                            checked={selected.has(p.id)}
                            onCheckedChange={(v) => toggle(p.id, v === true)}
                            aria-label={`Select ${p.filename}`}
                          />
                          <Button
                            variant="destructive"
                            size="icon"
                            className="absolute right-1 bottom-1 size-7"
                            aria-label={`Delete ${p.filename}`}
                            onClick={() => setConfirm({ ids: [p.id] })}
                          >
                            <Trash2Icon aria-hidden />
                          </Button>
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        )}
      </CardContent>

      <Dialog open={current !== undefined} onOpenChange={(o) => !o && setOpen(null)}>
        <DialogContent
          className="max-w-3xl"
          onKeyDown={(e) => {
            if (e.key === "ArrowRight") move(1);
            if (e.key === "ArrowLeft") move(-1);
          }}
        >
          {current && (
            <>
              <DialogHeader>
                <DialogTitle>{current.filename}</DialogTitle>
                <DialogDescription>
                  {uploaderName(current)} · {formatDateTimeYear(current.uploadedAt)}
                  {current.duplicateOf ? " · duplicate" : ""}
                </DialogDescription>
              </DialogHeader>
              <img src={photoImageUrl(current.id)} alt={current.notes || current.filename} className="max-h-[60vh] w-full object-contain" />
              <p className="text-sm whitespace-pre-wrap">{current.notes || "No notes"}</p>
              <div className="flex items-center justify-between gap-2">
                <Button variant="outline" size="sm" onClick={() => move(-1)} aria-label="Previous photo">
                  <ChevronLeftIcon aria-hidden /> Previous
                </Button>
                {canDelete && (
                  <Button variant="destructive" size="sm" onClick={() => setConfirm({ ids: [current.id] })}>
                    <Trash2Icon aria-hidden /> Delete
                  </Button>
                )}
                <Button variant="outline" size="sm" onClick={() => move(1)} aria-label="Next photo">
                  Next <ChevronRightIcon aria-hidden />
                </Button>
              </div>
            </>
          )}
        </DialogContent>
      </Dialog>

      <AlertDialog open={confirm !== null} onOpenChange={(o) => !o && setConfirm(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{confirm && confirm.ids.length > 1 ? `Delete ${confirm.ids.length} photos?` : "Delete this photo?"}</AlertDialogTitle>
            <AlertDialogDescription>Are you sure? The photo files are removed permanently.</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction onClick={onConfirm}>Delete</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
