import { zodResolver } from "@hookform/resolvers/zod";
import * as React from "react";
import { useForm } from "react-hook-form";
import { InputFormField } from "@/components/form-fields";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Textarea } from "@/components/ui/textarea";
import { useInventory } from "@/lib/inventory";
import { SETTING_DEFAULTS, type SettingsValues, settingsSchema, useSaveSettings } from "@/features/system/api/system";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { newIdempotencyKey } from "@/lib/idempotency";

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
  const inventory = useInventory();
  const save = useSaveSettings();
  const ids = React.useId();
  const zones = React.useMemo(timeZones, []);
  const stored = inventory.data?.settings;
  const form = useForm<SettingsValues>({
    resolver: zodResolver(settingsSchema),
    defaultValues: { ...SETTING_DEFAULTS },
    values: stored ? { ...SETTING_DEFAULTS, ...pick(stored) } : undefined,
    // what the admin already typed survives the stored values arriving or changing
    resetOptions: { keepDirtyValues: true },
  });
  const onSubmit = form.handleSubmit((values) =>
    save.mutate(
      { values, idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: (res) => toast({ title: res?.message || "Settings saved successfully!" }),
        onError: (e) => toast({ title: "Error", description: errorMessage(e, "Failed to save settings"), variant: "destructive" }),
      },
    ),
  );
  return (
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader>
        <CardTitle id={`${ids}-title`}>System Settings</CardTitle>
        <CardDescription>Fleet size, charger times, the drivers&apos; form prompts and the operation&apos;s time zone.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form {...form}>
          <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" noValidate>
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
              <FormField
                key={p.name}
                control={form.control}
                name={p.name}
                render={({ field }) => (
                  <FormItem className="sm:col-span-2">
                    <FormLabel>{p.label}</FormLabel>
                    <FormControl>
                      <Textarea rows={2} {...field} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
            ))}
            <div className="sm:col-span-2">
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? "Saving..." : "Save Settings"}
              </Button>
            </div>
          </form>
        </Form>
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
