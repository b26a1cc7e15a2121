import { QueryStatus } from "@/components/query-status";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useLiaisonHolders } from "@/features/liaison/api/get-liaison-battery-holders";
import { assetTotals, groupByType, isOwner, latestDate } from "@/features/liaison/utils/holder-summary";
import { formatDateTime } from "@/lib/format";
import { assignmentTypeLabel } from "@/lib/format-ops";

/**
 * AssetAssignments is 'Current Asset Assignments': how many people hold how many batteries;
 * per holder the name ('(Owner)' for admins), a badge per assignment type ('Pickup N',
 * 'Home Charger N'), the total and the date; then the same holdings grouped by type.
 */
export function AssetAssignments() {
  const holders = useLiaisonHolders();
  const list = holders.data ?? [];
  const totals = assetTotals(list);
  const byType = groupByType(list);
  return (
    <Card role="region" aria-labelledby="assets-title">
      <CardHeader>
        <CardTitle id="assets-title">Current Asset Assignments</CardTitle>
        <CardDescription>
          {holders.data
            ? `${totals.personnel} ${totals.personnel === 1 ? "person" : "personnel"} · ${totals.assets} assets deployed`
            : "Who holds batteries outside the warehouse."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <QueryStatus query={holders} skeletonClassName="h-20 w-full" error="Error loading battery holders" empty={holders.data?.length === 0 && "No active asset assignments"} />
        {list.length > 0 && (
          <ul aria-label="Asset holders" className="grid gap-2">
            {list.map((h) => (
              <li key={h.user.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3">
                <div className="min-w-0 space-y-1">
                  <p className="font-medium">
                    {`${h.user.firstName} ${h.user.lastName}`.trim()}
                    {isOwner(h.user.role) && <span className="ml-1 text-xs font-normal text-muted-foreground">(Owner)</span>}
                  </p>
                  <div className="flex flex-wrap gap-1.5">
                    {h.assignments.map((a) => (
                      <Badge key={a.id} variant={a.assignmentType === "home_charger" ? "success" : "secondary"}>
                        {assignmentTypeLabel(a.assignmentType)} {a.quantity}
                      </Badge>
                    ))}
                  </div>
                </div>
                <div className="text-right">
                  <div className="text-xl font-bold tabular-nums">{h.total}</div>
                  <p className="text-xs text-muted-foreground">{formatDateTime(latestDate(h))}</p>
                </div>
              </li>
            ))}
          </ul>
        )}
        {byType.length > 0 && (
          <section aria-labelledby="assets-by-type-title" className="grid gap-2">
            <h3 id="assets-by-type-title" className="text-sm font-semibold">
              By Assignment Type
            </h3>
            <ul className="grid gap-2 sm:grid-cols-2">
              {byType.map((g) => (
                <li key={g.assignmentType} className="rounded-lg border p-3 text-sm">
                  <p className="flex justify-between font-medium">
                    <span>{assignmentTypeLabel(g.assignmentType)}</span>
                    <span className="tabular-nums">{g.total}</span>
                  </p>
                  <p className="text-muted-foreground">{g.holders.map((x) => `${x.name} (${x.quantity})`).join(", ")}</p>
                </li>
              ))}
            </ul>
          </section>
        )}
      </CardContent>
    </Card>
  );
}
