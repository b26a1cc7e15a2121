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
 * FormLabel, the control, the description, FormMessage); render renders the control, inside a
 * FormControl, for the field's props and the props left over from the frame's (the control's
 * own: Input's type, Textarea's rows…). InputFormField, TextareaFormField, SelectFormField and
 * CheckboxFormField are it with their control; labelAfter puts the control first, then the
 * label with the help text under it (CheckboxFormField).
 */
export function LabelledField<T extends FieldValues, TOut = T, P extends object = object>({
  control,
  name,
  label,
  description,
  className,
  render,
  labelAfter = false,
  ...controlProps
}: LabelledFieldProps<T, TOut> & P & { render: (field: ControllerRenderProps<T, FieldPath<T>>, controlProps: P) => React.ReactNode; labelAfter?: boolean }) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => {
        const formControl = <FormControl>{render(field, controlProps as unknown as P)}</FormControl>;
        return (
          <FormItem className={className}>
            {labelAfter ? (
              <>
                {formControl}
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
                {formControl}
                {description && <FormDescription>{description}</FormDescription>}
              </>
            )}
            <FormMessage />
          </FormItem>
        );
      }}
    />
  );
}

/** InputControlProps: Input's own props, less those the field and the frame give it. */
type InputControlProps = Omit<React.ComponentProps<typeof Input>, "name" | "value" | "defaultValue" | "onChange" | "onBlur" | "form" | "className">;

/** InputFormFieldProps: the form's control, the field's name and label, then Input's own props. */
export type InputFormFieldProps<T extends FieldValues, TOut = T> = LabelledFieldProps<T, TOut> & {
  /** input renders the control instead of a plain Input (a password input, a textarea…); it gets the field's props */
  input?: (props: React.ComponentProps<"input">) => React.ReactNode;
} & InputControlProps;

/**
 * InputFormField is the one labelled text or number field of every form (shadcn's
 * FormField → FormItem → FormLabel → FormControl → FormMessage), for a field held as text:
 *
 *   <InputFormField control={form.control} name="quantity" label="Quantity" type="number" min={1} />
 */
export function InputFormField<T extends FieldValues, TOut = T>({ input, ...props }: InputFormFieldProps<T, TOut>) {
  return (
    <LabelledField<T, TOut, InputControlProps>
      {...props}
      render={(field, inputProps) => (input ? input({ ...inputProps, ...field, value: field.value ?? "" }) : <Input {...inputProps} {...field} value={field.value ?? ""} />)}
    />
  );
}
