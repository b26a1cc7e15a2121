import * as z from "zod/mini";

/** PACK_SETTING_DEFAULTS are the pack settings until a master admin saves them (DESIGN.md §14). */
export const PACK_SETTING_DEFAULTS = { pack_tracking: "off", pack_prefix: "SWB", pack_missing_days: "7", pack_worn_mode: "flag" } as const;

/** TRACKING_MODES are the tracking modes with what each means. */
export const TRACKING_MODES = [
  { value: "off", label: "Off — batteries are counted, packs are not named" },
  { value: "optional", label: "Optional — a movement may name its packs" },
  { value: "required", label: "Required — every battery move names its packs" },
] as const;

/**
 * WORN_MODES are what a worn pack (under its model's health threshold, or losing 3 points in 30
 * days) meets at hand-out (DESIGN.md §16: setting pack_worn_mode); returning one is always allowed.
 */
export const WORN_MODES = [
  { value: "flag", label: "Flag only — worn packs are listed and shown to admins" },
  { value: "refuse", label: "Refuse at hand-out — never to a driver or a charger" },
] as const;

/** packSettingsSchema is the Pack tracking form (the server's messages). */
export const packSettingsSchema = z.object({
  pack_tracking: z.enum(["off", "optional", "required"]),
  pack_worn_mode: z.enum(["flag", "refuse"], "Worn packs must be flag or refuse"),
  pack_prefix: z
    .string()
    .check(
      z.trim(),
      z.refine((v) => /^[A-Za-z][A-Za-z0-9]{1,7}$/.test(v), "The pack prefix must be 2 to 8 capital letters or digits, starting with a letter"),
    ),
  pack_missing_days: z
    .string()
    .check(
      z.trim(),
      z.refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 365, "Days before a pack is missing must be a whole number from 1 to 365"),
    ),
});

/** PackSettingsValues are the form's values (saved through useSettingsForm, lib/settings.ts). */
export type PackSettingsValues = z.infer<typeof packSettingsSchema>;
