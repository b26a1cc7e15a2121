import { PackListSlot } from "@/components/pack-list-slot";
import { PackScanField, type PackScanFieldProps } from "@/features/scan/components/pack-scan-field";
import { type PackTracking, expectedCount } from "@/lib/packs";

/** PackLists is the part of a form's usePackLists (lib/packs.ts) one list needs. */
export type PackLists<F extends string> = {
  field: (f: F) => Pick<PackScanFieldProps, "value" | "onChange" | "errors" | "onRefused">;
  listError: (f: F) => string | undefined;
};

/** PackListFieldProps: the form's lists and which one, the tracking mode, the count typed beside it. */
export type PackListFieldProps<F extends string> = Pick<PackScanFieldProps, "id" | "label" | "purpose" | "disabled" | "judge"> & {
  lists: PackLists<F>;
  list: F;
  tracking: PackTracking;
  /** count is the count field's value: in optional mode, the packs expected ("2 of 3 scanned"). */
  count?: unknown;
  className?: string;
};

/**
 * PackListField is one of a form's lists of packs under pack tracking (DESIGN.md §14): the scan
 * field wired to the form's lists, a refusal of the list as a whole under it (PackListSlot),
 * and in optional mode the count typed as the packs expected. Nothing when tracking is off.
 */
export function PackListField<F extends string>({ lists, list, tracking, count, className, ...scan }: PackListFieldProps<F>) {
  if (tracking === "off") return null;
  return (
    <PackListSlot error={lists.listError(list)} className={className}>
      <PackScanField {...scan} expected={tracking === "optional" ? expectedCount(count) : undefined} {...lists.field(list)} />
    </PackListSlot>
  );
}
