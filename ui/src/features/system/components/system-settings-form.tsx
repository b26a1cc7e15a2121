import { zodResolver } from "@hookform/resolvers/zod";
import * as React from "react";
import { FormBody, SubmitRow } from "@/components/form-body";
import { InputFormField } from "@/components/form-fields";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { TextareaFormField } from "@/components/textarea-form-field";
import { SETTING_DEFAULTS, type SettingsValues, settingsSchema } from "@/features/system/api/system";
import { useSettingsForm } from "@/lib/settings";

/** timeZones are the IANA zones the browser knows, for the searchable time zone list. */
function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  return ["UTC", ...(intl.supportedValuesOf?.("timeZone") ?? []).filter((z) => z !== "UTC")];
}

const PROMPTS = [
  { name: "dropoff_prompt", label: "Dropoff Prompt" },
  { name: "pickup_prompt", label: "Pickup Prompt" },
] as const;

/**
 * SystemSettingsForm is block 1 of /admin-system (spec part 2 §2): Total Batteries, the three
 * charger minutes, the dropoff and pickup prompts, and the operation time zone (DESIGN.md §3:
 * days and weeks are cut in it) from a searchable list. Toasts 'Settings saved successfully!'.
 */
export function SystemSettingsForm() {
  const ids = React.useId();
  const zones = React.useMemo(timeZones, []);
  const { form, onSubmit, pending } = useSettingsForm<SettingsValues>({
    resolver: zodResolver(settingsSchema),
    defaults: { ...SETTING_DEFAULTS },
    fromStored: (stored) => ({ ...SETTING_DEFAULTS, ...pick(stored) }),
  });
  return (
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader>
        <CardTitle id={`${ids}-title`}>System Settings</CardTitle>
        <CardDescription>Fleet size, charger times, the drivers&apos; form prompts and the operation&apos;s time zone.</CardDescription>
      </CardHeader>
      <CardContent>
        <FormBody form={form} onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" footer={<SubmitRow pending={pending}>Save Settings</SubmitRow>}>
          <InputFormField control={form.control} name="total_batteries" label="Total Batteries" inputMode="numeric" />
          <InputFormField control={form.control} name="time_zone" label="Time Zone" list={`${ids}-zones`} placeholder="UTC" autoComplete="off" />
          <datalist id={`${ids}-zones`}>
            {zones.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          <InputFormField control={form.control} name="charger_minutes_2_5A" label="2.5A Charger Minutes" inputMode="numeric" />
          <InputFormField control={form.control} name="charger_minutes_4A" label="4A Charger Minutes" inputMode="numeric" />
          <InputFormField control={form.control} name="charger_minutes_5A" label="5A Charger Minutes" inputMode="numeric" />
          {PROMPTS.map((p) => (
            <TextareaFormField key={p.name} control={form.control} name={p.name} label={p.label} rows={2} className="sm:col-span-2" />
          ))}
        </FormBody>
      </CardContent>
    </Card>
  );
}

function pick(stored: Record<string, string>): Partial<SettingsValues> {
  const out: Partial<SettingsValues> = {};
  for (const k of Object.keys(SETTING_DEFAULTS) as (keyof SettingsValues)[]) {
    if (stored[k] !== undefined) out[k] = String(stored[k]);
  }
  return out;
}
