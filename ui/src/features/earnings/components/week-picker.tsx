import { DownloadIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { addDays, weekLabel } from "@/features/earnings/utils/money";

/** WEEKS_BACK is how many weeks the picker offers (this week, last week and earlier ones). */
export const WEEKS_BACK = 12;

/**
 * WeekPicker chooses the earnings week — this week, last week or an earlier one — given the
 * server's current week start (the operation's time zone decides it); "" is this week. The
 * Download CSV link exports the chosen week.
 */
export function WeekPicker({ current, value, onChange }: { current?: string; value: string; onChange: (weekStart: string) => void }) {
  const weeks = current ? Array.from({ length: WEEKS_BACK }, (_, i) => addDays(current, -7 * i)) : [];
  const chosen = value || current || "";
  const name = (w: string, i: number) => (i === 0 ? `This week (${weekLabel(w)})` : i === 1 ? `Last week (${weekLabel(w)})` : weekLabel(w));
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="grid gap-1.5">
        <Label htmlFor="earnings-week">Week</Label>
        <Select value={chosen} onValueChange={(w) => onChange(w === current ? "" : w)} disabled={!current}>
          <SelectTrigger id="earnings-week" className="w-64">
            <SelectValue placeholder="This week" />
          </SelectTrigger>
          <SelectContent>
            {weeks.map((w, i) => (
              <SelectItem key={w} value={w}>
                {name(w, i)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <Button asChild variant="outline">
        <a href={`/api/admin/earnings.csv${chosen ? `?weekStart=${chosen}` : ""}`} download>
          <DownloadIcon aria-hidden />
          Download CSV
        </a>
      </Button>
    </div>
  );
}
