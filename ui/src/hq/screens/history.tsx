import { useQuery } from "@tanstack/react-query";
import * as React from "react";
import { OptionSelect } from "@/components/option-select";
import { QueryStatus } from "@/components/query-status";
import { Label } from "@/components/ui/label";
import { ScrollTable } from "@/components/ui/scroll-table";
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDayMonth } from "@/lib/format";
import { historyQueryOptions } from "@/hq/api";
import { formatCount, formatMoney } from "@/hq/format";
import { HqCard, HqPageHeader } from "@/hq/shell";

/** HISTORY_SPANS are the spans the History page offers, in weeks (the server takes 1..260). */
export const HISTORY_SPANS = [
  { weeks: 12, label: "12 weeks" },
  { weeks: 52, label: "52 weeks" },
  { weeks: 260, label: "5 years" },
];

/** HistoryScreen: swaps and pay per week for each city, from head office's daily rollups (GET /api/hq/history). */
export function HistoryScreen() {
  const [weeks, setWeeks] = React.useState(12);
  const history = useQuery({ ...historyQueryOptions(weeks), meta: { silentError: true } });
  const id = React.useId();
  return (
    <>
      <HqPageHeader title="History" description="Swaps and pay per week, by each city's Monday weeks, from head office's daily figures">
        <div className="grid gap-1">
          <Label htmlFor={`${id}-span`}>Span</Label>
          <OptionSelect
            id={`${id}-span`}
            className="w-36"
            value={String(weeks)}
            onValueChange={(v) => setWeeks(Number(v))}
            options={HISTORY_SPANS.map((s) => ({ value: String(s.weeks), label: s.label }))}
          />
        </div>
      </HqPageHeader>
      <QueryStatus
        query={history}
        skeletonClassName="h-64 w-full"
        error="Failed to load the history"
        alert
        empty={history.data && history.data.cities.length === 0 && "No city yet."}
      />
      <div className="grid gap-6 lg:grid-cols-2">
        {history.data?.cities.map((c) => (
          <HqCard key={c.id} title={c.name}>
            {c.weeks.length === 0 ? (
              <p className="text-sm text-muted-foreground">No finished day recorded yet.</p>
            ) : (
              <ScrollTable label={`${c.name}: swaps and pay per week`}>
                <TableHeader>
                  <TableRow>
                    <TableHead scope="col">Week of</TableHead>
                    <TableHead scope="col" className="text-right">
                      Swaps
                    </TableHead>
                    <TableHead scope="col" className="text-right">
                      Pay ({c.currency})
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {[...c.weeks].reverse().map((w) => (
                    <TableRow key={w.weekStart}>
                      <TableCell>
                        {formatDayMonth(w.weekStart)} {w.weekStart.slice(0, 4)}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">{formatCount(w.swaps)}</TableCell>
                      <TableCell className="text-right tabular-nums">{formatMoney(w.payCents, c.currency)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </ScrollTable>
            )}
          </HqCard>
        ))}
      </div>
    </>
  );
}
