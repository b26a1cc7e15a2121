import { zodResolver } from "@hookform/resolvers/zod";
import * as React from "react";
import { ButtonLink } from "@/components/button-link";
import { FormBody, SubmitRow } from "@/components/form-body";
import { InputFormField } from "@/components/form-fields";
import { SelectFormField } from "@/components/select-form-field";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { paths } from "@/config/paths";
import { PACK_SETTING_DEFAULTS, TRACKING_MODES, WORN_MODES, packSettingsSchema, type PackSettingsValues } from "@/features/packs/api/pack-settings";
import { useSettingsForm } from "@/lib/settings";

/**
 * PackSettingsCard is the Pack tracking block of /admin-system (master admin, DESIGN.md §14):
 * the tracking mode, the serial prefix of minted packs and the days after which an unseen
 * pack is missing, and whether a worn pack is only flagged or refused at hand-out (DESIGN.md §16).
 * unnamedInBay is, once required is saved, how many of the bay's batteries no pack names yet
 * (GET /api/admin/attention's unnamedInBay): the switch names none by itself, so the card says to
 * count the bay, with the stocktake's link, while any remain.
 */
export function PackSettingsCard({ unnamedInBay = 0 }: { unnamedInBay?: number }) {
  const ids = React.useId();
  const { form, onSubmit, pending } = useSettingsForm<PackSettingsValues>({
    resolver: zodResolver(packSettingsSchema),
    defaults: { ...PACK_SETTING_DEFAULTS },
    fromStored: (stored) => ({
      pack_tracking: (stored.pack_tracking as PackSettingsValues["pack_tracking"]) || PACK_SETTING_DEFAULTS.pack_tracking,
      pack_prefix: stored.pack_prefix || PACK_SETTING_DEFAULTS.pack_prefix,
      pack_missing_days: stored.pack_missing_days || PACK_SETTING_DEFAULTS.pack_missing_days,
      pack_worn_mode: (stored.pack_worn_mode as PackSettingsValues["pack_worn_mode"]) || PACK_SETTING_DEFAULTS.pack_worn_mode,
    }),
    toSent: (values) => ({ ...values, pack_prefix: values.pack_prefix.trim().toUpperCase() }),
  });
  return (
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader>
        <CardTitle id={`${ids}-title`}>Pack tracking</CardTitle>
        <CardDescription>Whether movements name their battery packs, the serial prefix of new packs, when an unseen pack counts as missing, and what a worn pack meets at hand-out.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {unnamedInBay > 0 && (
          <div role="status" className="flex flex-col gap-2 rounded-md border border-amber-500/50 bg-amber-50 p-3 text-sm text-amber-950 sm:flex-row sm:items-center sm:justify-between dark:bg-amber-950 dark:text-amber-50">
            <p>
              {unnamedInBay === 1 ? "1 battery in the bay is not a named pack yet." : `${unnamedInBay} batteries in the bay are not named packs yet.`} Count the bay so
              every battery is a named pack.
            </p>
            <ButtonLink variant="outline" size="sm" className="self-start sm:self-auto" to={`${paths.stocktake.path}?place=bay`}>
              Count the bay
            </ButtonLink>
          </div>
        )}
        <FormBody form={form} onSubmit={onSubmit} className="grid grid-cols-1 gap-4 sm:grid-cols-2" footer={<SubmitRow pending={pending}>Save pack settings</SubmitRow>}>
          <SelectFormField control={form.control} name="pack_tracking" label="Tracking mode" options={TRACKING_MODES} className="sm:col-span-2" />
          <InputFormField control={form.control} name="pack_prefix" label="Serial prefix" autoComplete="off" description="New serials read PREFIX-000123; existing packs keep theirs." />
          <InputFormField control={form.control} name="pack_missing_days" label="Missing after (days)" inputMode="numeric" description="A pack in service unseen since local midnight this many days ago is listed as missing." />
          <SelectFormField control={form.control} name="pack_worn_mode" label="Worn packs" options={WORN_MODES} className="sm:col-span-2" />
        </FormBody>
      </CardContent>
    </Card>
  );
}
