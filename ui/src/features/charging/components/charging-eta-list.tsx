import { ClockIcon } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { ChargingSession } from "@/features/charging/api/get-charging-sessions";
import { useNow } from "@/hooks/use-now";
import { etaEntries } from "@/features/charging/utils/session-status";
import { formatEta } from "@/lib/format";

/**
 * ChargingEtaList shows the two soonest sessions that have an ETA: 'N ready now' once the
 * time has come (or is within this minute), else 'N ready at {time}' (spec part 1 §2).
 * It takes the sessions as a prop: /api/state's chargingSessions for drivers, or a
 * charging sessions query for admins and the liaison. Renders nothing without sessions
 * unless emptyText is given.
 */
export function ChargingEtaList({ sessions, emptyText }: { sessions: readonly ChargingSession[]; emptyText?: string }) {
  const now = useNow(15_000);
  const entries = etaEntries(sessions);
  if (entries.length === 0) {
    return emptyText ? <p className="text-sm text-muted-foreground">{emptyText}</p> : null;
  }
  return (
    <ul aria-label="Charging ETAs" className="grid gap-1.5">
      {entries.map((s) => (
        <li key={s.id} className="flex items-center gap-2 text-sm">
          <ClockIcon aria-hidden className="size-4 text-muted-foreground" />
          <span className="font-medium">{formatEta(s.quantity, s.etaAt, now)}</span>
          <span className="text-xs text-muted-foreground">({s.chargerType})</span>
        </li>
      ))}
    </ul>
  );
}

/** NextReadyCard is the Next Ready card of the admin's and the liaison's charging screens: the ChargingEtaList of sessions, or 'No batteries charging'. */
export function NextReadyCard({ sessions, titleId }: { sessions: readonly ChargingSession[]; titleId: string }) {
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Next Ready</CardTitle>
      </CardHeader>
      <CardContent>
        <ChargingEtaList sessions={sessions} emptyText="No batteries charging" />
      </CardContent>
    </Card>
  );
}
