// @vitest-environment node
import { describe, expect, it } from "vitest";
import { WIPE_PHRASE, settingsSchema, wipeSchema } from "@/features/system/api/system";
import { settingsBody } from "@/lib/settings";

const message = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? null : r.error!.issues[0]!.message);

describe("settingsSchema (spec part 2 §5)", () => {
  const ok = { total_batteries: " 160 ", charger_minutes_2_5A: "", charger_minutes_4A: "180", charger_minutes_5A: "150", dropoff_prompt: "", pickup_prompt: "", time_zone: " UTC " };
  it("passes and trims", () => {
    expect(settingsSchema.parse(ok)).toMatchObject({ total_batteries: "160", time_zone: "UTC" });
  });
  it.each([
    [{ total_batteries: "" }, "Total batteries is required"],
    [{ total_batteries: "1.5" }, "Total batteries must be a whole number 0 or greater"],
    [{ charger_minutes_4A: "-1" }, "Charger minutes must be a whole number 0 or greater"],
    [{ pickup_prompt: "x".repeat(501) }, "Prompts can be at most 500 characters"],
  ])("%j → %s", (change, want) => {
    expect(message(settingsSchema.safeParse({ ...ok, ...change }))).toBe(want);
  });
});

describe("settingsBody", () => {
  it("sends a cleared prompt blank, so the server resets it", () => {
    const v = settingsSchema.parse({ total_batteries: "160", charger_minutes_2_5A: "", charger_minutes_4A: "", charger_minutes_5A: "", dropoff_prompt: " ", pickup_prompt: "Check the locks", time_zone: "" });
    expect(settingsBody(v).settings).toEqual(expect.arrayContaining([{ key: "dropoff_prompt", value: "" }, { key: "pickup_prompt", value: "Check the locks" }]));
  });
});

describe("wipeSchema", () => {
  it.each([
    [{ targetDate: "", confirmPhrase: WIPE_PHRASE }, "Target date is required"],
    [{ targetDate: "2026-01-01", confirmPhrase: "" }, "Confirmation phrase is required"],
    [{ targetDate: "2026-01-01", confirmPhrase: "delete" }, `Please type ${WIPE_PHRASE} to confirm`],
    [{ targetDate: "2026-01-01", confirmPhrase: ` ${WIPE_PHRASE} ` }, null],
  ])("%j → %s", (values, want) => {
    expect(message(wipeSchema.safeParse(values))).toBe(want);
  });
});
