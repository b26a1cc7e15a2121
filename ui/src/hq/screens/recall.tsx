import { useQuery } from "@tanstack/react-query";
import { ArrowLeftIcon, CheckCircle2Icon } from "lucide-react";
import { Link, useParams } from "react-router";
import { QueryStatus } from "@/components/query-status";
import { ScrollTable } from "@/components/ui/scroll-table";
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { ApiError, errorMessage } from "@/lib/api-client";
import { formatDateTime } from "@/lib/format";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { newIdempotencyKey } from "@/lib/idempotency";
import { type RecallCity, isHqAdmin, recallQueryOptions, useMe, useRetryRecallSend } from "@/hq/api";
import { RECALL_BY_LABEL, clause, formatCount, recallCityWords } from "@/hq/format";
import { hqPaths } from "@/hq/paths";
import { HqCard, HqPageHeader } from "@/hq/shell";
import { toastError } from "@/lib/toast-error";

/** RecallScreen is one recall across cities: per city sent / done / N packs quarantined, refreshed every 5 s until done everywhere. */
export function RecallScreen() {
  const { id = "" } = useParams();
  const recall = useQuery({ ...recallQueryOptions(id), meta: { silentError: true } });
  const admin = isHqAdmin(useMe().data);
  const r = recall.data;
  const notFound = recall.error instanceof ApiError && recall.error.status === 404;
  return (
    <>
      <Link to={hqPaths.recalls.path} className="mb-4 inline-flex items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
        <ArrowLeftIcon aria-hidden className="size-4" />
        All recalls
      </Link>
      <HqPageHeader
        title={r ? `Recall of ${(RECALL_BY_LABEL[r.by] ?? r.by).toLowerCase()} ${r.value}` : "Recall"}
        description={r ? `${formatDateTime(r.at)} by ${r.actor.name || "head office"}` : undefined}
      />
      <QueryStatus query={recall} skeletonClassName="h-40 w-full" error={notFound ? "Recall not found" : errorMessage(recall.error, "Failed to load the recall")} alert />
      {r && (
        // one column that may shrink below the table's width: the table scrolls inside its card
        // instead of pushing the card past a phone's edge
        <div className="grid grid-cols-1 gap-4">
          <p role="status" className={r.done ? "flex items-center gap-2 font-medium text-primary" : "font-medium text-amber-700 dark:text-amber-400"}>
            {r.done && <CheckCircle2Icon aria-hidden className="size-5" />}
            {r.done ? "Done: every matching pack in every city is quarantined." : "In progress: refreshed every 5 seconds."}
          </p>
          <p className="text-sm break-words">
            <span className="text-muted-foreground">Reason: </span>
            {r.reason}
          </p>
          <HqCard title="Cities">
            <ScrollTable label="The recall in each city">
              <TableHeader>
                <TableRow>
                  <TableHead scope="col">City</TableHead>
                  <TableHead scope="col">Progress</TableHead>
                  <TableHead scope="col" className="text-right">
                    Quarantined
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {r.cities.map((c) => (
                  <TableRow key={c.id} data-done={c.done || undefined}>
                    <TableCell className="font-medium whitespace-normal">{c.name}</TableCell>
                    <TableCell className={c.send === "failed" || c.lost ? "whitespace-normal text-destructive" : "whitespace-normal"}>
                      {recallCityWords(c)}
                      {c.copyOk === false && (
                        <span className="block text-muted-foreground">Its copy could not be read: {clause(c.copyError, "not available")}.</span>
                      )}
                      {admin && (c.send !== "sent" || c.lost) && (
                        <div className="mt-1">
                          <RetryButton recallId={r.id} city={c} />
                        </div>
                      )}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {formatCount(c.quarantined)} / {formatCount(c.matching)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </ScrollTable>
          </HqCard>
        </div>
      )}
    </>
  );
}

/** RetryButton sends a city's part of the recall again now (hq_admin), e.g. once a new token is saved. */
function RetryButton({ recallId, city }: { recallId: string; city: RecallCity }) {
  const retry = useRetryRecallSend();
  const [key, setKey] = React.useState(newIdempotencyKey);
  return (
    <Button
      variant="outline"
      size="sm"
      // aria-disabled, not disabled: a disabled button drops the keyboard's focus to the page
      aria-disabled={retry.isPending || undefined}
      aria-label={`Send again to ${city.name}`}
      onClick={() =>
        !retry.isPending &&
        retry.mutate(
          { id: recallId, cityId: city.id, idempotencyKey: key },
          {
            onSuccess: () => setKey(newIdempotencyKey()),
            onError: (e) => toastError(e, "Failed to send the recall again"),
          },
        )
      }
    >
      {retry.isPending ? "Sending..." : "Send again"}
    </Button>
  );
}
