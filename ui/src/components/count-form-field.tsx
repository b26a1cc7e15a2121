import type { FieldValues } from "react-hook-form";
import { InputFormField, type InputFormFieldProps } from "@/components/form-fields";
import { type PackTracking, countFieldProps } from "@/lib/packs";

// Apart from form-fields.tsx: the sign-in screen's first load has no count (nor lib/packs).
/** CountFormFieldProps: InputFormField's props, and the pack tracking mode when the count moves batteries. */
export type CountFormFieldProps<T extends FieldValues, TOut = T> = Omit<InputFormFieldProps<T, TOut>, "type" | "inputMode" | "step"> & {
  /** tracking, when given, makes the count read-only in required mode (it is the packs scanned) */
  tracking?: PackTracking;
};

/** CountFormField is the whole-number field of the battery forms: a numeric keypad, steps of 1, and the pack tracking's read-only count. */
export function CountFormField<T extends FieldValues, TOut = T>({ tracking, ...props }: CountFormFieldProps<T, TOut>) {
  return <InputFormField type="number" inputMode="numeric" step={1} {...props} {...(tracking ? countFieldProps(tracking) : {})} />;
}
