import { MessageSquareTextIcon } from "lucide-react";
import { cn } from "@/lib/utils";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import type { FeedMovement } from "@/features/activity/api/get-recent-activity";
import { personName } from "@/features/activity/utils/movement-summary";
import { dropoffNotes } from "@/features/activity/utils/dropoff-notes";
import { formatDateTime } from "@/lib/format";

/**
 * DropoffNotesCard lists recent dropoffs that carry a driver's note: name, time, the note
 * and 'Dropped off N batteries'; bookkeeping notes are hidden (spec part 1 §2). Empty:
 * 'No dropoff notes available'. The caller passes a feed that refreshes every 60 s.
 */
export function DropoffNotesCard({ movements, isLoading = false, tall = false }: { movements?: readonly FeedMovement[]; isLoading?: boolean; tall?: boolean }) {
  const notes = dropoffNotes(movements ?? []);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MessageSquareTextIcon aria-hidden className="size-5 text-muted-foreground" />
          Dropoff Notes
        </CardTitle>
      </CardHeader>
      <CardContent>
        {isLoading && !movements ? (
          <Skeleton className="h-20" />
        ) : notes.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No dropoff notes available</p>
        ) : (
          // focusable, so a keyboard can scroll it (axe scrollable-region-focusable)
          <div
            tabIndex={0}
            className={cn(
              "overflow-y-auto rounded-sm pr-1 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50",
              tall ? "max-h-[36rem]" : "max-h-96",
            )}
          >
            <ul aria-label="Dropoff notes" className="space-y-3">
              {notes.map(({ movement: m, note }) => (
                <li key={m.id} className="rounded-md border p-3">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <span className="font-medium">{personName(m)}</span>
                    <time dateTime={m.createdAt} className="text-xs text-muted-foreground">
                      {formatDateTime(m.createdAt)}
                    </time>
                  </div>
                  <p className="mt-1 text-sm break-words whitespace-pre-line">{note}</p>
                  <p className="mt-1 text-xs text-muted-foreground">
                    Dropped off {Math.abs(m.quantity)} {Math.abs(m.quantity) === 1 ? "battery" : "batteries"}
                  </p>
                </li>
              ))}
            </ul>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
