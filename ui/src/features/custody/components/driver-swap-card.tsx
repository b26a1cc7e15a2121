import { ArrowLeftRightIcon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import { ConfirmActionDialog, type ConfirmValues } from "@/components/confirm-action-dialog";
import { CountFormField } from "@/components/count-form-field";
import { FormBody } from "@/components/form-body";
import { FormCard } from "@/components/form-card";
import { TextareaFormField } from "@/components/textarea-form-field";
import { Button } from "@/components/ui/button";
import { useDriverSwap } from "@/features/custody/api/driver-swap";
import { useBatteryHolders } from "@/features/custody/api/get-battery-holders";
import { useEligibleHolders } from "@/features/custody/api/get-eligible-holders";
import { HolderFormField } from "@/features/custody/components/holder-select";
import { type ParsedSwap, type SwapField, type SwapFormValues, validateSwap } from "@/features/custody/utils/swap-validation";
import { PackListField } from "@/features/scan/index";
import { usePendingConfirm } from "@/hooks/use-pending-confirm";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { displayName } from "@/lib/user";
import { batteryCount } from "@/lib/format";
import { packsBody, usePackLists, usePackTracking, useScannedCount, packMoveCallbacks } from "@/lib/packs";

type SwapMode = "simple" | "exchange";

const EMPTY: SwapFormValues = {
  fromUserId: "",
  toUserId: "",
  goodBatteries: "",
  deadBatteries: "",
  returnGoodBatteries: "",
  returnDeadBatteries: "",
  notes: "",
};

/** SWAP_LISTS are the pack lists a swap names (DESIGN.md §14), one per count, the request's field names. */
const SWAP_LISTS = ["goodPacks", "deadPacks", "returnGoodPacks", "returnDeadPacks"] as const;
type SwapList = (typeof SWAP_LISTS)[number];

const COUNT_FIELDS: { name: SwapField; label: string; list: SwapList; listLabel: string; exchangeOnly?: boolean }[] = [
  { name: "goodBatteries", label: "Good Batteries", list: "goodPacks", listLabel: "Good packs" },
  { name: "deadBatteries", label: "Dead Batteries", list: "deadPacks", listLabel: "Dead packs" },
  { name: "returnGoodBatteries", label: "Return Good Batteries", list: "returnGoodPacks", listLabel: "Return good packs", exchangeOnly: true },
  { name: "returnDeadBatteries", label: "Return Dead Batteries", list: "returnDeadPacks", listLabel: "Return dead packs", exchangeOnly: true },
];

/**
 * DriverSwapCard is the Driver-to-Driver Battery Swap card with Simple Swap and Exchange
 * modes. Every rule of spec part 2 §5 is checked before the Confirm Action dialog (type
 * driver_swap or two_way_swap) opens, and again on the confirmed figures; the server's
 * message is shown if it still refuses.
 */
export function DriverSwapCard() {
  const users = useEligibleHolders();
  const holders = useBatteryHolders();
  const [mode, setMode] = React.useState<SwapMode>("simple");
  const form = useForm<SwapFormValues>({ defaultValues: EMPTY });
  const [pending, setPending, confirmDialog] = usePendingConfirm<{ values: SwapFormValues; parsed: ParsedSwap }>();
  const swap = useDriverSwap();
  const isExchange = mode === "exchange";
  const tracking = usePackTracking();
  const packs = usePackLists(SWAP_LISTS);
  const { goodPacks, deadPacks, returnGoodPacks, returnDeadPacks } = packs.lists;
  useScannedCount(form, tracking, "goodBatteries", goodPacks);
  useScannedCount(form, tracking, "deadBatteries", deadPacks);
  useScannedCount(form, tracking, "returnGoodBatteries", returnGoodPacks);
  useScannedCount(form, tracking, "returnDeadBatteries", returnDeadPacks);
  // the lists a send carries: the return's only in an exchange
  const sentLists = isExchange ? packs.lists : { goodPacks, deadPacks };

  const counts = React.useMemo(() => new Map((holders.data ?? []).map((h) => [h.user.id, h.total])), [holders.data]);
  const names = React.useMemo(() => new Map((users.data ?? []).map((u) => [u.id, displayName(u)])), [users.data]);

  const check = (values: SwapFormValues) => validateSwap(values, isExchange, holders.data ?? [], names);

  const onSubmit = form.handleSubmit((values) => {
    form.clearErrors();
    const result = check(values);
    if (!result.ok) {
      form.setError(result.error.field, { message: result.error.message }, { shouldFocus: true });
      return;
    }
    const p = result.value;
    const counts = isExchange
      ? { goodPacks: p.good, deadPacks: p.dead, returnGoodPacks: p.returnGood, returnDeadPacks: p.returnDead }
      : { goodPacks: p.good, deadPacks: p.dead, returnGoodPacks: returnGoodPacks.length, returnDeadPacks: returnDeadPacks.length };
    if (!packs.check(tracking, counts)) return;
    swap.reset();
    setPending({ values, parsed: result.value });
  });

  const onConfirm = (confirmed: ConfirmValues, idempotencyKey: string) => {
    if (!pending) return;
    // the confirm dialog's Edit may change the figures: check them again before sending
    const values: SwapFormValues = {
      ...pending.values,
      goodBatteries: String(confirmed.goodBatteries ?? 0),
      deadBatteries: String(confirmed.deadBatteries ?? 0),
      returnGoodBatteries: String(confirmed.returnGoodBatteries ?? 0),
      returnDeadBatteries: String(confirmed.returnDeadBatteries ?? 0),
    };
    const result = check(values);
    if (!result.ok) {
      toast({ title: "Error", description: result.error.message, variant: "destructive" });
      return;
    }
    const p = result.value;
    swap.mutate(
      {
        fromUserId: values.fromUserId,
        toUserId: values.toUserId,
        goodBatteries: p.good,
        deadBatteries: p.dead,
        returnGoodBatteries: p.returnGood,
        returnDeadBatteries: p.returnDead,
        isExchange,
        notes: values.notes.trim(),
        idempotencyKey,
        ...packsBody(tracking, sentLists),
      },
      packMoveCallbacks({
        packs,
        close: () => setPending(null),
        reset: () => form.reset(EMPTY),
        success: isExchange ? "Battery exchange recorded successfully" : "Driver swap recorded successfully",
        failure: "Failed to record driver swap",
      }),
    );
  };

  const userSelect = (name: "fromUserId" | "toUserId", label: string) => (
    <HolderFormField
      control={form.control}
      name={name}
      label={label}
      users={users.data ?? []}
      counts={counts}
      placeholder={users.isPending ? "Loading drivers..." : "Select driver"}
    />
  );

  const fromName = pending ? (names.get(pending.values.fromUserId) ?? "") : "";
  const toName = pending ? (names.get(pending.values.toUserId) ?? "") : "";

  const submit = (
    <Button type="submit" className="sm:col-span-2" disabled={swap.isPending}>
      <ArrowLeftRightIcon aria-hidden /> {isExchange ? "Record Exchange" : "Record Swap"}
    </Button>
  );
  return (
    <FormCard
      icon={ArrowLeftRightIcon}
      title="Driver-to-Driver Battery Swap"
      description={
        isExchange
          ? "Exchange: the giving driver hands batteries over and receives some back."
          : "Simple Swap: one driver hands batteries to another."
      }
    >
      <div className="grid gap-4">
        <div role="group" aria-label="Swap mode" className="inline-flex w-fit rounded-lg bg-muted p-[3px]">
          {(
            [
              ["simple", "Simple Swap"],
              ["exchange", "Exchange"],
            ] as const
          ).map(([value, label]) => (
            <Button
              key={value}
              type="button"
              size="sm"
              variant={mode === value ? "outline" : "ghost"}
              aria-pressed={mode === value}
              className={mode === value ? "shadow-sm" : "text-muted-foreground"}
              onClick={() => {
                setMode(value);
                form.clearErrors();
              }}
            >
              {label}
            </Button>
          ))}
        </div>
        <FormBody form={form} onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" footer={submit}>
          {userSelect("fromUserId", "From Driver")}
          {userSelect("toUserId", "To Driver")}
          {COUNT_FIELDS.filter((f) => isExchange || !f.exchangeOnly).map((f) => (
            <CountFormField key={f.name} control={form.control} name={f.name} label={f.label} min={0} placeholder="0" tracking={tracking} />
          ))}
          {COUNT_FIELDS.filter((f) => isExchange || !f.exchangeOnly).map((f) => (
            <PackListField key={f.list} id={`swap.${f.list}`} label={f.listLabel} purpose="handout" lists={packs} list={f.list} tracking={tracking} count={form.watch(f.name)} className="sm:col-span-2" />
          ))}
          <TextareaFormField control={form.control} name="notes" label="Notes (optional)" rows={2} className="sm:col-span-2" />
        </FormBody>
      </div>
      <ConfirmActionDialog
        {...confirmDialog}
        type={isExchange ? "two_way_swap" : "driver_swap"}
        values={
          isExchange
            ? {
                goodBatteries: pending?.parsed.good ?? 0,
                deadBatteries: pending?.parsed.dead ?? 0,
                returnGoodBatteries: pending?.parsed.returnGood ?? 0,
                returnDeadBatteries: pending?.parsed.returnDead ?? 0,
              }
            : { goodBatteries: pending?.parsed.good ?? 0, deadBatteries: pending?.parsed.dead ?? 0 }
        }
        summary={
          isExchange ? (
            <>
              <strong>{fromName || "The giving driver"}</strong> and <strong>{toName || "the receiving driver"}</strong>{" "}
              exchange batteries.
            </>
          ) : (
            <>
              <strong>{fromName || "The giving driver"}</strong> gives <strong>{toName || "the receiving driver"}</strong>{" "}
              {batteryCount((pending?.parsed.good ?? 0) + (pending?.parsed.dead ?? 0))} ({pending?.parsed.good ?? 0} good,{" "}
              {pending?.parsed.dead ?? 0} dead).
            </>
          )
        }
        labels={
          isExchange
            ? {
                goodBatteries: `${fromName || "Giver"} gives ${toName || "Receiver"}: good`,
                deadBatteries: `${fromName || "Giver"} gives ${toName || "Receiver"}: dead`,
                returnGoodBatteries: `${toName || "Receiver"} returns to ${fromName || "Giver"}: good`,
                returnDeadBatteries: `${toName || "Receiver"} returns to ${fromName || "Giver"}: dead`,
              }
            : undefined
        }
        packs={Object.values(sentLists).flat()}
        refused={packs.refused}
        notes={pending?.values.notes.trim() || undefined}
        allowEdit={tracking !== "required"}
        pending={swap.isPending}
        error={swap.isError ? errorMessage(swap.error, "Failed to record driver swap") : null}
        onConfirm={onConfirm}
      />
    </FormCard>
  );
}
