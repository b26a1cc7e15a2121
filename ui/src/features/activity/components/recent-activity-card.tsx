import { ActivityIcon, ChevronRightIcon } from "lucide-react";
import * as React from "react";
import { Lazy, loadable } from "@/lib/loadable";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Hint } from "@/components/ui/hint";
import { ScrollArea } from "@/components/ui/scroll-area";
import { Skeleton } from "@/components/ui/skeleton";
import type { FeedMovement } from "@/features/activity/api/get-recent-activity";
import { useNow } from "@/hooks/use-now";
import { lateActionLabel } from "@/lib/late-action";
import { movementSummary } from "@/features/activity/utils/movement-summary";
import { formatRelativeTime } from "@/lib/format";
import { movementNotes, movementTypeLabel } from "@/lib/format-ops";
import { cn } from "@/lib/utils";

// The movement options dialog (its forms, zod and the confirm dialog) is fetched when an admin
// first opens a movement, not with the dashboard (issue 14: fewer requests before first paint).
const movementOptionsDialog = loadable(() =>
  import("@/features/activity/components/movement-options-dialog").then((m) => m.MovementOptionsDialog),
);

/** RecentActivityCardProps: the entries come from the caller (the server filters them by role). */
export type RecentActivityCardProps = {
  movements: readonly FeedMovement[] | undefined;
  isLoading?: boolean;
  /** manage (admin roles) makes each entry open the Movement Options dialog. */
  manage?: boolean;
  title?: string;
  description?: string;
  className?: string;
};

/**
 * RecentActivityCard lists activity entries with relative times ('Just now', 'N mins ago',
 * …); empty: 'No recent activity'. Admins open an entry for its Movement Options.
 */
export function RecentActivityCard({
  movements,
  isLoading = false,
  manage = false,
  title = "Recent Activity",
  description,
  className,
}: RecentActivityCardProps) {
  const now = useNow();
  const [selected, setSelected] = React.useState<FeedMovement | null>(null);
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ActivityIcon aria-hidden className="size-5 text-muted-foreground" />
          {title}
        </CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent>
        {isLoading && !movements ? (
          <div className="space-y-2">
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
        ) : !movements || movements.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No recent activity</p>
        ) : (
          <ScrollArea className="h-96 pr-3">
            <ul aria-label={title} className="divide-y">
              {movements.map((m) => (
                <li key={m.id}>
                  <ActivityEntry movement={m} now={now} onOpen={manage ? () => setSelected(m) : undefined} />
                </li>
              ))}
            </ul>
          </ScrollArea>
        )}
      </CardContent>
      {manage && selected && (
        <Lazy of={movementOptionsDialog} movement={selected} onClose={() => setSelected(null)} />
      )}
    </Card>
  );
}

function ActivityEntry({
  movement: m,
  now,
  onOpen,
}: {
  movement: FeedMovement;
  now: Date;
  onOpen?: () => void;
}) {
  const note = movementNotes(m);
  const late = lateActionLabel(m);
  const hint = React.useId();
  const body = (
    <>
      <span className="min-w-0 flex-1">
        <span className="flex flex-wrap items-center gap-2">
          <Badge variant={m.type === "dropoff" ? "success" : m.type === "pickup" ? "default" : "secondary"}>{movementTypeLabel(m.type)}</Badge>
          <span className="text-xs text-muted-foreground">{formatRelativeTime(m.occurredAt ?? m.createdAt, now)}</span>
          {m.pending && <Badge variant="warning">waiting to send</Badge>}
          {late && <span className="text-xs text-muted-foreground">{late}</span>}
          {m.discrepancy && <Badge variant="warning">Discrepancy</Badge>}
        </span>
        <span className="mt-1 block text-sm font-medium break-words">{movementSummary(m)}</span>
        {note && (
          <span className="block truncate text-xs text-muted-foreground" title={note}>
            {note}
          </span>
        )}
      </span>
      {onOpen && <ChevronRightIcon aria-hidden className="size-4 shrink-0 text-muted-foreground" />}
    </>
  );
  const cls = "flex w-full items-center gap-3 py-2.5 text-left";
  if (!onOpen) return <div className={cls}>{body}</div>;
  // named by what the row shows (SC 2.5.3); what a tap does is its description
  return (
    <>
      <button
        type="button"
        className={cn(cls, "rounded-md px-1 outline-none hover:bg-accent/60 focus-visible:ring-[3px] focus-visible:ring-ring/50")}
        aria-haspopup="dialog"
        aria-describedby={hint}
        onClick={onOpen}
      >
        {body}
      </button>
      <Hint id={hint}>Opens Movement Options</Hint>
    </>
  );
}
