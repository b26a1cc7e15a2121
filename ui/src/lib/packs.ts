/** PackTracking is the operation's pack tracking mode (DESIGN.md §14). */
export type PackTracking = "off" | "optional" | "required";

/** packTracking reads the mode from the stored settings (GET /api/inventory's settings); unset is off. */
export function packTracking(settings: Record<string, string> | undefined): PackTracking {
  const v = settings?.pack_tracking;
  return v === "optional" || v === "required" ? v : "off";
}

/** splitSerials splits typed pack serials (commas, semicolons, spaces, new lines) into upper-case serials. */
export function splitSerials(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
}

/** serialsProblem says what is wrong with serials for quantity batteries under mode (null: fine). */
export function serialsProblem(serials: string[], quantity: number, mode: PackTracking): string | null {
  if (mode === "off" || serials.length === 0) return mode === "required" && quantity > 0 ? `Name ${quantity} pack serials, one per battery` : null;
  if (new Set(serials).size !== serials.length) return "The same pack is named twice";
  if (serials.length !== quantity) return `Name ${quantity} pack serials, one per battery (${serials.length} named)`;
  return null;
}
