import { zodResolver } from "@hookform/resolvers/zod";
import { SirenIcon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import { ConfirmActionDialog } from "@/components/confirm-action-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { type OverrideValues, overrideSchema, useEmergencyOverride } from "@/features/inventory/api/emergency-override";
import { useInventory } from "@/lib/inventory";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";

type Counts = { ready: number; waiting: number; charging: number; total: number };

const FIELDS: { name: keyof OverrideValues; label: string; min: number }[] = [
  { name: "ready", label: "Ready", min: 0 },
  { name: "waiting", label: "Waiting", min: 0 },
  { name: "charging", label: "Charging", min: 0 },
  { name: "total", label: "Total", min: 1 },
];

/**
 * EmergencyOverrideForm is the Emergency Inventory Override form (spec part 2 §5): Ready,
 * Waiting, Charging and Total, each required (inputs min 0, total min 1), confirmed, then
 * POST /api/admin/emergency-inventory-override.
 */
export function EmergencyOverrideForm() {
  const inventory = useInventory();
  const form = useForm<OverrideValues>({
    resolver: zodResolver(overrideSchema),
    defaultValues: { ready: "", waiting: "", charging: "", total: "" },
  });
  const { errors } = form.formState;
  const [pending, setPending] = React.useState<Counts | null>(null);
  const override = useEmergencyOverride();

  const fillCurrent = () => {
    const d = inventory.data;
    if (!d) return;
    form.reset({ ready: String(d.ready), waiting: String(d.waiting), charging: String(d.charging), total: String(d.total) });
  };

  const onSubmit = form.handleSubmit((v) => {
    override.reset();
    setPending({ ready: Number(v.ready), waiting: Number(v.waiting), charging: Number(v.charging), total: Number(v.total) });
  });

  const onConfirm = (_values: unknown, idempotencyKey: string) => {
    if (!pending) return;
    override.mutate(
      { ...pending, idempotencyKey },
      {
        onSuccess: () => {
          toast({ title: "Emergency override applied successfully!" });
          setPending(null);
          form.reset();
        },
        onError: (err) =>
          toast({ title: "Error", description: errorMessage(err, "Failed to apply emergency override"), variant: "destructive" }),
      },
    );
  };

  return (
    <Card role="region" aria-labelledby="override-title" className="border-destructive/40">
      <CardHeader>
        <CardTitle id="override-title" className="flex items-center gap-2">
          <SirenIcon aria-hidden className="size-5 text-destructive" />
          Emergency Inventory Override
        </CardTitle>
        <CardDescription>
          Sets the pool counts outright after a physical count. The difference is recorded as an adjustment.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
            {FIELDS.map((f) => (
              <div key={f.name} className="grid gap-2">
                <Label htmlFor={`override-${f.name}`}>{f.label}</Label>
                <Input
                  id={`override-${f.name}`}
                  type="number"
                  inputMode="numeric"
                  min={f.min}
                  step={1}
                  placeholder={inventory.data ? String(inventory.data[f.name]) : undefined}
                  aria-invalid={errors[f.name] ? true : undefined}
                  aria-describedby={errors[f.name] ? `override-${f.name}-error` : undefined}
                  {...form.register(f.name)}
                />
                {errors[f.name] && (
                  <p id={`override-${f.name}-error`} className="text-sm text-destructive">
                    {errors[f.name]?.message}
                  </p>
                )}
              </div>
            ))}
          </div>
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="outline" onClick={fillCurrent} disabled={!inventory.data}>
              Use Current Counts
            </Button>
            <Button type="submit" variant="destructive" disabled={override.isPending}>
              Apply Override
            </Button>
          </div>
        </form>
      </CardContent>
      <ConfirmActionDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        type="edit"
        title="Confirm Emergency Override"
        values={{ quantity: pending?.total ?? 0 }}
        summary={
          <>
            Correct <strong>the inventory counts</strong>. Affected balances are recalculated.
          </>
        }
        labels={{ quantity: "Total" }}
        notes={
          pending
            ? `Ready ${pending.ready}, Waiting ${pending.waiting}, Charging ${pending.charging}, Total ${pending.total}`
            : undefined
        }
        pending={override.isPending}
        error={override.isError ? errorMessage(override.error, "Failed to apply emergency override") : null}
        onConfirm={onConfirm}
      />
    </Card>
  );
}
