// @vitest-environment node
import { describe, expect, it } from "vitest";
import { PACK_SETTING_DEFAULTS, WORN_MODES, packSettingsSchema } from "@/features/packs/api/pack-settings";

describe("the pack settings form", () => {
  const base = { pack_tracking: "optional", pack_prefix: "SWB", pack_missing_days: "7" };
  it("takes the worn mode flag or refuse, flag until saved (issue 46)", () => {
    expect(PACK_SETTING_DEFAULTS.pack_worn_mode).toBe("flag");
    expect(WORN_MODES.map((m) => m.value)).toEqual(["flag", "refuse"]);
    for (const mode of ["flag", "refuse"]) expect(packSettingsSchema.safeParse({ ...base, pack_worn_mode: mode }).success).toBe(true);
  });
  it("refuses any other worn mode with the server's words", () => {
    const r = packSettingsSchema.safeParse({ ...base, pack_worn_mode: "sometimes" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe("Worn packs must be flag or refuse");
  });
});
