import { queryOptions, useQuery } from "@tanstack/react-query";

/** HealthSource says where a state of health comes from: the pack's BMS (a reading) or an estimate from charges. */
export type HealthSource = "reading" | "estimate";

/** NegativeEvent is one event that wears a pack: a damage report, an over-temperature reading, a BMS fault. */
export type NegativeEvent = { at: string; kind: "damage" | "over_temperature" | "fault"; text: string };

/**
 * PackHealth is GET /api/packs/{serial}/health (DESIGN.md §16): what SwapBay derives of the
 * pack's health from its ledger, its chargers and its BMS readings. A figure it cannot know is
 * absent, never invented.
 */
export type PackHealth = {
  serial: string;
  model: string;
  /** threshold: the model's end-of-life state of health, % (default 80) */
  threshold: number;
  /** charges: completed charging sessions naming the pack */
  charges: number;
  /** fullCycles: energy ÷ nominal Wh (basis energy), or the charges as an upper bound (basis charges) */
  fullCycles: { value: number; basis: "energy" | "charges" };
  energyThroughputWh?: number;
  soh?: { value: number; source: HealthSource; at: string };
  capacity?: { fullAh?: number; designAh?: number; fullWh?: number; designWh?: number; at: string };
  /** drop30: points of state of health lost in the last 30 days */
  drop30?: number;
  worn: boolean;
  wornReason: string;
  series: {
    soh: { at: string; value: number; source: HealthSource }[];
    /** week: the Monday, YYYY-MM-DD */
    chargesPerWeek: { week: string; charges: number }[];
  };
  negativeEvents: NegativeEvent[];
};

/** packHealthQueryOptions: one pack's health (whoever may read the pack may read it). */
export function packHealthQueryOptions(serial: string) {
  return queryOptions<PackHealth>({
    queryKey: ["/api/packs", encodeURIComponent(serial), "health"],
    // a completed charge, an imported reading, a model's threshold or a damage report changes it
    meta: { staleOn: ["INVENTORY_UPDATED", "CHARGING_UPDATED", "charging", "packs"] },
  });
}

/** usePackHealth loads one pack's health. */
export function usePackHealth(serial: string) {
  return useQuery(packHealthQueryOptions(serial));
}
