import type * as React from "react";
import type { FieldValues } from "react-hook-form";
import { LabelledField, type LabelledFieldProps } from "@/components/form-fields";
import { FormControl } from "@/components/ui/form";
import { Textarea } from "@/components/ui/textarea";

// Apart from form-fields.tsx: the sign-in screen's first load has no multi-line field.
/** TextareaFormFieldProps: the form's control, the field's name and label, then Textarea's own props. */
export type TextareaFormFieldProps<T extends FieldValues, TOut = T> = LabelledFieldProps<T, TOut> & Omit<React.ComponentProps<typeof Textarea>, "name" | "value" | "defaultValue" | "onChange" | "onBlur" | "form" | "className">;

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
    <LabelledField
      {...{ control, name, label, description, className }}
      render={(field) => (
        <FormControl>
          <Textarea {...textareaProps} {...field} value={field.value ?? ""} />
        </FormControl>
      )}
    />
  );
}
