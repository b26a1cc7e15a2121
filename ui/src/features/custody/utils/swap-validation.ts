import type { HolderGroup } from "@/features/custody/api/get-battery-holders";
import { MAX_COUNT, wholeNumber } from "@/lib/count";

/** SwapFormValues are the Driver-to-Driver swap form's raw values (counts as typed; blank is 0). */
export type SwapFormValues = {
  fromUserId: string;
  toUserId: string;
  goodBatteries: string;
  deadBatteries: string;
  returnGoodBatteries: string;
  returnDeadBatteries: string;
  notes: string;
};

/** SwapField is a field a swap error is shown on. */
export type SwapField = Exclude<keyof SwapFormValues, "notes">;

/** SwapError is the first rule a swap breaks, with the field to show it on. */
export type SwapError = { field: SwapField; message: string };

/** ParsedSwap is a valid swap's counts. */
export type ParsedSwap = { good: number; dead: number; returnGood: number; returnDead: number };

/** parseCount reads a count: blank is 0; anything but a whole number 0 or more is null. */
export function parseCount(value: string): number | null {
  return value.trim() === "" ? 0 : wholeNumber(value, MAX_COUNT);
}

/** holderName is how a holder is named in messages: first and last name. */
export function holderName(h: { firstName: string; lastName: string }): string {
  return `${h.firstName} ${h.lastName}`.trim() || "This driver";
}

/**
 * validateSwap checks a swap before it is sent, with every rule and message of spec part 2
 * §5 (the server checks the same again): both drivers, counts, different drivers, at least
 * one battery, the giver among the holders and holding enough, dead batteries not above
 * what the receiver holds; in exchange mode the return counts, which the receiver can give
 * from what they hold after the transfer. names maps user ids to display names.
 */
export function validateSwap(
  v: SwapFormValues,
  isExchange: boolean,
  holders: readonly HolderGroup[],
  names: ReadonlyMap<string, string>,
): { ok: true; value: ParsedSwap } | { ok: false; error: SwapError } {
  const fail = (field: SwapField, message: string) => ({ ok: false as const, error: { field, message } });
  if (!v.fromUserId) return fail("fromUserId", "From driver is required");
  if (!v.toUserId) return fail("toUserId", "To driver is required");
  const counts: [SwapField, string][] = [
    ["goodBatteries", v.goodBatteries],
    ["deadBatteries", v.deadBatteries],
  ];
  if (isExchange) counts.push(["returnGoodBatteries", v.returnGoodBatteries], ["returnDeadBatteries", v.returnDeadBatteries]);
  for (const [field, raw] of counts) {
    if (parseCount(raw) === null) return fail(field, "Must be a valid number 0 or greater");
  }
  const good = parseCount(v.goodBatteries)!;
  const dead = parseCount(v.deadBatteries)!;
  const returnGood = isExchange ? parseCount(v.returnGoodBatteries)! : 0;
  const returnDead = isExchange ? parseCount(v.returnDeadBatteries)! : 0;
  if (v.fromUserId === v.toUserId) return fail("toUserId", "Cannot swap batteries with the same driver");
  const from = holders.find((h) => h.user.id === v.fromUserId);
  if (!from || from.total <= 0) return fail("fromUserId", "From driver not found or has no batteries");
  const give = good + dead;
  if (give > from.total) {
    return fail("goodBatteries", `${holderName(from.user)} only has ${from.total} batteries, cannot give ${give}`);
  }
  if (give <= 0) return fail("goodBatteries", "Must specify at least some good or dead batteries to transfer");
  const to = holders.find((h) => h.user.id === v.toUserId);
  const toHeld = to?.total ?? 0;
  const toName = to ? holderName(to.user) : (names.get(v.toUserId) ?? "The receiving driver");
  if (dead > toHeld) {
    return fail("deadBatteries", `Dead batteries (${dead}) cannot exceed what ${toName} holds (${toHeld})`);
  }
  const giveBack = returnGood + returnDead;
  if (isExchange && giveBack > toHeld + give) {
    return fail("returnGoodBatteries", `${toName} only has ${toHeld + give} batteries, cannot give ${giveBack}`);
  }
  return { ok: true, value: { good, dead, returnGood, returnDead } };
}

/** DeadTransferValues are the dead-battery transfer form's raw values. */
export type DeadTransferValues = { fromUserId: string; toUserId: string; deadBatteries: string; notes: string };

/**
 * validateDeadTransfer checks a dead-battery transfer (spec part 2 §5): from and to
 * required, different, dead count at least 1 and not above what the giver holds.
 */
export function validateDeadTransfer(
  v: DeadTransferValues,
  holders: readonly HolderGroup[],
): { ok: true; dead: number } | { ok: false; error: { field: keyof Omit<DeadTransferValues, "notes">; message: string } } {
  if (!v.fromUserId) return { ok: false, error: { field: "fromUserId", message: "From driver is required" } };
  if (!v.toUserId) return { ok: false, error: { field: "toUserId", message: "To driver is required" } };
  if (v.fromUserId === v.toUserId) {
    return { ok: false, error: { field: "toUserId", message: "Cannot swap batteries with the same driver" } };
  }
  const dead = parseCount(v.deadBatteries);
  if (dead === null || dead < 1) {
    return { ok: false, error: { field: "deadBatteries", message: "Dead batteries must be at least 1" } };
  }
  const from = holders.find((h) => h.user.id === v.fromUserId);
  if (!from || from.total <= 0) {
    return { ok: false, error: { field: "fromUserId", message: "From driver not found or has no batteries" } };
  }
  if (dead > from.total) {
    return {
      ok: false,
      error: { field: "deadBatteries", message: `${holderName(from.user)} only has ${from.total} batteries, cannot give ${dead}` },
    };
  }
  return { ok: true, dead };
}
