import { QueryStatus } from "@/components/query-status";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ScrollTable } from "@/components/ui/scroll-table";
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useAdminWeeklyActivity } from "@/lib/weekly-activity";
import { roleLabel } from "@/lib/user";

/** PersonnelPerformance is 'Weekly Personnel Performance': this week's figures per person. */
export function PersonnelPerformance() {
  const week = useAdminWeeklyActivity(0);
  const rows = week.data?.driverBreakdown ?? [];
  return (
    <Card role="region" aria-labelledby="personnel-title">
      <CardHeader>
        <CardTitle id="personnel-title">Weekly Personnel Performance</CardTitle>
        <CardDescription>This week, Monday to Sunday.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryStatus query={week} skeletonClassName="h-20 w-full" error="Unable to load driver activity" empty={week.isSuccess && rows.length === 0 && "No driver activity this week"} />
        {rows.length > 0 && (
          <ScrollTable label="Personnel performance table">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead className="text-right">Batteries</TableHead>
                <TableHead className="text-right">Rebalances</TableHead>
                <TableHead className="text-right">Recovers</TableHead>
                <TableHead className="text-right">Activities</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.user.id}>
                  <TableCell>
                    <span className="font-medium">{`${r.user.firstName} ${r.user.lastName}`.trim()}</span>{" "}
                    <Badge variant="outline">{r.user.role === "driver" ? "Driver" : roleLabel(r.user.role)}</Badge>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{r.deadBatteriesTotal}</TableCell>
                  <TableCell className="text-right tabular-nums">{r.rebalanceTotal}</TableCell>
                  <TableCell className="text-right tabular-nums">{r.retrievesRepairsTotal}</TableCell>
                  <TableCell className="text-right tabular-nums">{r.totalActivities}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </ScrollTable>
        )}
      </CardContent>
    </Card>
  );
}
