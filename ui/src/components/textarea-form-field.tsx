import type * as React from "react";
import type { Control, FieldPath, FieldValues } from "react-hook-form";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Textarea } from "@/components/ui/textarea";

// Apart from form-fields.tsx: the sign-in screen's first load has no multi-line field.
/** TextareaFormFieldProps: the form's control, the field's name and label, then Textarea's own props. */
export type TextareaFormFieldProps<T extends FieldValues, TOut = T> = {
  control: Control<T, unknown, TOut>;
  name: FieldPath<T>;
  label: React.ReactNode;
  description?: React.ReactNode;
  className?: string;
} & Omit<React.ComponentProps<typeof Textarea>, "name" | "value" | "defaultValue" | "onChange" | "onBlur" | "form" | "className">;

/** TextareaFormField is InputFormField for a multi-line text (notes, prompts). */
export function TextareaFormField<T extends FieldValues, TOut = T>({
  control,
  name,
  label,
  description,
  className,
  ...textareaProps
}: TextareaFormFieldProps<T, TOut>) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={className}>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Textarea {...textareaProps} {...field} value={field.value ?? ""} />
          </FormControl>
          {description && <FormDescription>{description}</FormDescription>}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}
