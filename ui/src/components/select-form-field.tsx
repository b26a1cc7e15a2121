import type { FieldValues } from "react-hook-form";
import { LabelledField, type LabelledFieldProps } from "@/components/form-fields";
import { OptionSelect, type SelectOption } from "@/components/option-select";

// Apart from form-fields.tsx: Radix Select stays out of the screens whose forms have no select
// (the sign-in screen's first load, the driver dashboard).
/** SelectFormFieldProps: the form's control, the field's name and label, and its choices. */
export type SelectFormFieldProps<T extends FieldValues, TOut = T> = Omit<LabelledFieldProps<T, TOut>, "description"> & {
  options: readonly SelectOption[];
  /** placeholder shows while nothing is chosen */
  placeholder?: string;
  disabled?: boolean;
};

/** SelectFormField is InputFormField for a choice from a list (Radix Select). */
export function SelectFormField<T extends FieldValues, TOut = T>({ options, placeholder, disabled, ...props }: SelectFormFieldProps<T, TOut>) {
  return (
    <LabelledField
      {...props}
      render={(field) => <OptionSelect value={field.value} onValueChange={field.onChange} options={options} placeholder={placeholder} disabled={disabled} onBlur={field.onBlur} />}
    />
  );
}
