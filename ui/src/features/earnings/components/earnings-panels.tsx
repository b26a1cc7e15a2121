import * as React from "react";
import { CollapsibleCard } from "@/components/ui/card";
import { useAllEarnings } from "@/features/earnings/api/earnings";
import { AllEarningsTable } from "@/features/earnings/components/all-earnings-table";
import { CoreTeamPoolCard } from "@/features/earnings/components/core-team-pool-card";
import { PayRatesCard } from "@/features/earnings/components/pay-rates-card";
import { WeekPicker } from "@/features/earnings/components/week-picker";

/**
 * EarningsPanels are the admin dashboard's pay section (spec part 2 §2): the week picker and
 * Download CSV, the Admin Core Team Pool, All Users Weekly Earnings and Pay Rates
 * Configuration (these two collapse under their titles, remembered on the device). Loaded as
 * its own chunk below the dashboard's first screen.
 */
export default function EarningsPanels() {
  const [weekStart, setWeekStart] = React.useState("");
  const thisWeek = useAllEarnings();
  const chosen = useAllEarnings(weekStart || undefined);
  return (
    <section aria-labelledby="earnings-title" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="earnings-title" className="text-xl font-semibold">
            Earnings
          </h2>
          <p className="text-sm text-muted-foreground">
            {chosen.data ? `Week of ${chosen.data.weekStart} to ${chosen.data.weekEnd}` : "Monday to Sunday in the operation's time zone"}
          </p>
        </div>
        <WeekPicker current={thisWeek.data?.weekStart} value={weekStart} onChange={setWeekStart} />
      </div>
      <CoreTeamPoolCard weekStart={weekStart} />
      <CollapsibleCard id="home.all-earnings">
        <AllEarningsTable weekStart={weekStart} data={chosen} />
      </CollapsibleCard>
      <CollapsibleCard id="home.pay-rates">
        <PayRatesCard />
      </CollapsibleCard>
    </section>
  );
}
