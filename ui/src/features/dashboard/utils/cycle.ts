/** BatteryView is what the driver's batteries card shows; a tap moves to the next. */
export type BatteryView = "possession" | "daily" | "weekly" | "lastWeek";

/** PeriodView is what the Moves and Recovers cards show; a tap moves to the next. */
export type PeriodView = "daily" | "weekly" | "lastWeek";

/** BATTERY_VIEWS is the batteries card's cycle (spec part 1 §2). */
export const BATTERY_VIEWS: readonly BatteryView[] = ["possession", "daily", "weekly", "lastWeek"];

/** PERIOD_VIEWS is the Moves and Recovers cards' cycle. */
export const PERIOD_VIEWS: readonly PeriodView[] = ["daily", "weekly", "lastWeek"];

/** nextView returns the view after current in cycle, wrapping to the first. */
export function nextView<T>(cycle: readonly T[], current: T): T {
  const i = cycle.indexOf(current);
  return cycle[(i + 1) % cycle.length]!;
}

/** VIEW_CAPTIONS are the captions under a card's number. */
export const VIEW_CAPTIONS: Record<BatteryView, string> = {
  possession: "In your possession",
  daily: "Today",
  weekly: "This week",
  lastWeek: "Last week",
};
