import { zodResolver } from "@hookform/resolvers/zod";
import { PencilIcon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import * as z from "zod/mini";
import { FormBody } from "@/components/form-body";
import { InputFormField } from "@/components/form-fields";
import { QueryStatus } from "@/components/query-status";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { usePayRates, useSetPayRates } from "@/features/earnings/api/earnings";
import { formatMoney, parseRate } from "@/features/earnings/utils/money";

const RATE_MESSAGE = "Enter an amount of 0 or more with at most 2 decimals";
const rate = z.string().check(z.refine((s) => parseRate(s) !== null, RATE_MESSAGE));
const ratesSchema = z.object({ deadBattery: rate, move: rate, recover: rate });
type RatesText = z.infer<typeof ratesSchema>;

const FIELDS = [
  { name: "deadBattery", label: "Per Dead Battery" },
  { name: "move", label: "Per Move" },
  { name: "recover", label: "Per Recover" },
] as const;

/**
 * PayRatesCard is Pay Rates Configuration (spec part 2 §2): the rates in force, read-only
 * until Edit Rates; Save Changes makes new rates effective at once (past weeks keep theirs),
 * Cancel drops the edit. Any failure: 'Failed to update pay rates'.
 */
export function PayRatesCard() {
  const rates = usePayRates();
  const save = useSetPayRates();
  const [editing, setEditing] = React.useState(false);
  const form = useForm<RatesText>({ resolver: zodResolver(ratesSchema), defaultValues: { deadBattery: "", move: "", recover: "" } });
  const start = () => {
    const r = rates.data;
    form.reset({ deadBattery: (r?.deadBattery ?? 0).toFixed(2), move: (r?.move ?? 0).toFixed(2), recover: (r?.recover ?? 0).toFixed(2) });
    setEditing(true);
  };
  const onSubmit = form.handleSubmit((v) =>
    save.mutate(
      { deadBattery: parseRate(v.deadBattery)!, move: parseRate(v.move)!, recover: parseRate(v.recover)! },
      { onSuccess: () => setEditing(false) },
    ),
  );
  const footer = (
    <div className="flex gap-2">
      <Button type="submit" disabled={save.isPending}>
        {save.isPending && <Spinner label="Saving" />}
        Save Changes
      </Button>
      <Button type="button" variant="outline" disabled={save.isPending} onClick={() => setEditing(false)}>
        Cancel
      </Button>
    </div>
  );
  return (
    <Card role="region" aria-labelledby="pay-rates-title">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle id="pay-rates-title">Pay Rates Configuration</CardTitle>
          <CardDescription>
            Pay per task. New rates apply from the moment they are saved; past weeks keep the rates they were paid at.
          </CardDescription>
        </div>
        {!editing && (
          <Button variant="outline" onClick={start} disabled={!rates.data}>
            <PencilIcon aria-hidden /> Edit Rates
          </Button>
        )}
      </CardHeader>
      <CardContent>
        <QueryStatus query={rates} skeletonClassName="h-16 w-full" error="Failed to load pay rates" alert />
        {rates.data && !editing && (
          <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            {FIELDS.map((f) => (
              <div key={f.name} className="rounded-lg border p-3">
                <dt className="text-sm text-muted-foreground">{f.label}</dt>
                <dd className="text-xl font-semibold tabular-nums">{formatMoney(rates.data[f.name])}</dd>
              </div>
            ))}
          </dl>
        )}
        {editing && (
          <FormBody form={form} onSubmit={onSubmit} className="grid gap-4" footer={footer}>
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
              {FIELDS.map((f) => (
                <InputFormField key={f.name} control={form.control} name={f.name} label={`${f.label} ($)`} type="number" inputMode="decimal" min={0} step="0.01" />
              ))}
            </div>
          </FormBody>
        )}
      </CardContent>
    </Card>
  );
}
