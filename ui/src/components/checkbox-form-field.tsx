import type { FieldValues } from "react-hook-form";
import type { LabelledFieldProps } from "@/components/form-fields";
import { Checkbox } from "@/components/ui/checkbox";
import { FormControl, FormDescription, FormField, FormItem, FormLabel } from "@/components/ui/form";

/**
 * CheckboxFormField is a form's on/off field: the checkbox, then its label (and help text
 * under the label) beside it, in one FormItem laid out by className.
 */
export function CheckboxFormField<T extends FieldValues, TOut = T>({
  control,
  name,
  label,
  description,
  className,
  disabled,
}: LabelledFieldProps<T, TOut> & { disabled?: boolean }) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={className}>
          <FormControl>
            <Checkbox checked={field.value} onCheckedChange={(c) => field.onChange(c === true)} onBlur={field.onBlur} disabled={disabled} />
          </FormControl>
          {description ? (
            <div className="grid gap-1">
              <FormLabel>{label}</FormLabel>
              <FormDescription>{description}</FormDescription>
            </div>
          ) : (
            <FormLabel>{label}</FormLabel>
          )}
        </FormItem>
      )}
    />
  );
}
