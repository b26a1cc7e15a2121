import type { FieldValues } from "react-hook-form";
import { LabelledField, type LabelledFieldProps } from "@/components/form-fields";
import { Checkbox } from "@/components/ui/checkbox";

/**
 * CheckboxFormField is a form's on/off field: the checkbox, then its label (and help text
 * under the label) beside it, in one FormItem laid out by className.
 */
export function CheckboxFormField<T extends FieldValues, TOut = T>({ disabled, ...props }: LabelledFieldProps<T, TOut> & { disabled?: boolean }) {
  return (
    <LabelledField
      {...props}
      labelAfter
      render={(field) => <Checkbox checked={field.value} onCheckedChange={(c) => field.onChange(c === true)} onBlur={field.onBlur} disabled={disabled} />}
    />
  );
}
