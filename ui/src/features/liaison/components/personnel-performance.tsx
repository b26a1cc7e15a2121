import { QueryStatus } from "@/components/query-status";
import { TableColumns } from "@/components/table-columns";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ScrollTable } from "@/components/ui/scroll-table";
import { useAdminWeeklyActivity } from "@/lib/weekly-activity";
import { roleLabel } from "@/lib/user";

/** count is a figure's column: right-aligned, tabular digits. */
const count = { headClassName: "text-right", className: "text-right tabular-nums" };

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
            <TableColumns
              rows={rows}
              rowKey={(r) => r.user.id}
              columns={[
                {
                  head: "Name",
                  cell: (r) => (
                    <>
                      <span className="font-medium">{`${r.user.firstName} ${r.user.lastName}`.trim()}</span>{" "}
                      <Badge variant="outline">{r.user.role === "driver" ? "Driver" : roleLabel(r.user.role)}</Badge>
                    </>
                  ),
                },
                { head: "Batteries", ...count, cell: (r) => r.deadBatteriesTotal },
                { head: "Rebalances", ...count, cell: (r) => r.rebalanceTotal },
                { head: "Recovers", ...count, cell: (r) => r.retrievesRepairsTotal },
                { head: "Activities", ...count, cell: (r) => r.totalActivities },
              ]}
            />
          </ScrollTable>
        )}
      </CardContent>
    </Card>
  );
}
