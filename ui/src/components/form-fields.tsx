import type * as React from "react";
import type { Control, ControllerRenderProps, FieldPath, FieldValues } from "react-hook-form";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";

/** LabelledFieldProps: the form's control, the field's name and label, help text, the grid cell's class. */
export type LabelledFieldProps<T extends FieldValues, TOut = T> = {
  control: Control<T, unknown, TOut>;
  name: FieldPath<T>;
  label: React.ReactNode;
  /** description is help text under the control */
  description?: React.ReactNode;
  /** className lays out the field's FormItem (the grid cell) */
  className?: string;
};

/**
 * LabelledField is the frame every labelled form field shares (shadcn's FormField → FormItem →
 * FormLabel, the control, the description, FormMessage); control renders the control for the
 * field's props, inside a FormControl. InputFormField, TextareaFormField and SelectFormField
 * are it with their control; labelAfter puts the control first, then the label with the help
 * text under it (CheckboxFormField).
 */
export function LabelledField<T extends FieldValues, TOut = T>({
  control,
  name,
  label,
  description,
  className,
  render,
  labelAfter = false,
}: LabelledFieldProps<T, TOut> & { render: (field: ControllerRenderProps<T, FieldPath<T>>) => React.ReactNode; labelAfter?: boolean }) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={className}>
          {labelAfter ? (
            <>
              {render(field)}
              {description ? (
                <div className="grid gap-1">
                  <FormLabel>{label}</FormLabel>
                  <FormDescription>{description}</FormDescription>
                </div>
              ) : (
                <FormLabel>{label}</FormLabel>
              )}
            </>
          ) : (
            <>
              <FormLabel>{label}</FormLabel>
              {render(field)}
              {description && <FormDescription>{description}</FormDescription>}
            </>
          )}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

/** InputFormFieldProps: the form's control, the field's name and label, then Input's own props. */
export type InputFormFieldProps<T extends FieldValues, TOut = T> = LabelledFieldProps<T, TOut> & {
  /** input renders the control instead of a plain Input (a password input, a textarea…); it gets the field's props */
  input?: (props: React.ComponentProps<"input">) => React.ReactNode;
} & Omit<React.ComponentProps<typeof Input>, "name" | "value" | "defaultValue" | "onChange" | "onBlur" | "form" | "className">;

/**
 * InputFormField is the one labelled text or number field of every form (shadcn's
 * FormField → FormItem → FormLabel → FormControl → FormMessage), for a field held as text:
 *
 *   <InputFormField control={form.control} name="quantity" label="Quantity" type="number" min={1} />
 */
export function InputFormField<T extends FieldValues, TOut = T>({
  control,
  name,
  label,
  description,
  className,
  input,
  ...inputProps
}: InputFormFieldProps<T, TOut>) {
  return (
    <LabelledField
      {...{ control, name, label, description, className }}
      render={(field) => (
        <FormControl>{input ? input({ ...inputProps, ...field, value: field.value ?? "" }) : <Input {...inputProps} {...field} value={field.value ?? ""} />}</FormControl>
      )}
    />
  );
}
