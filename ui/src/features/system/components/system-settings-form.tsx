import { zodResolver } from "@hookform/resolvers/zod";
import * as React from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { TextField } from "@/components/ui/text-field";
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
  });
  const { errors } = form.formState;
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
        <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" noValidate>
          <TextField id={`${ids}-total`} label="Total Batteries" inputMode="numeric" error={errors.total_batteries?.message} {...form.register("total_batteries")} />
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-tz`}>Time Zone</Label>
            <input
              id={`${ids}-tz`}
              list={`${ids}-zones`}
              placeholder="UTC"
              className="h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm"
              {...form.register("time_zone")}
            />
            <datalist id={`${ids}-zones`}>
              {zones.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          </div>
          <TextField id={`${ids}-m25`} label="2.5A Charger Minutes" inputMode="numeric" error={errors.charger_minutes_2_5A?.message} {...form.register("charger_minutes_2_5A")} />
          <TextField id={`${ids}-m4`} label="4A Charger Minutes" inputMode="numeric" error={errors.charger_minutes_4A?.message} {...form.register("charger_minutes_4A")} />
          <TextField id={`${ids}-m5`} label="5A Charger Minutes" inputMode="numeric" error={errors.charger_minutes_5A?.message} {...form.register("charger_minutes_5A")} />
          <div className="grid gap-2 sm:col-span-2">
            <Label htmlFor={`${ids}-dp`}>Dropoff Prompt</Label>
            <Textarea id={`${ids}-dp`} rows={2} {...form.register("dropoff_prompt")} />
          </div>
          <div className="grid gap-2 sm:col-span-2">
            <Label htmlFor={`${ids}-pp`}>Pickup Prompt</Label>
            <Textarea id={`${ids}-pp`} rows={2} {...form.register("pickup_prompt")} />
          </div>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? "Saving..." : "Save Settings"}
            </Button>
          </div>
        </form>
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
