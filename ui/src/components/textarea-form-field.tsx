import type * as React from "react";
import type { FieldValues } from "react-hook-form";
import { LabelledField, type LabelledFieldProps } from "@/components/form-fields";
import { Textarea } from "@/components/ui/textarea";

// Apart from form-fields.tsx: the sign-in screen's first load has no multi-line field.
/** TextareaControlProps: Textarea's own props, less those the field and the frame give it. */
type TextareaControlProps = Omit<React.ComponentProps<typeof Textarea>, "name" | "value" | "defaultValue" | "onChange" | "onBlur" | "form" | "className">;

/** TextareaFormFieldProps: the form's control, the field's name and label, then Textarea's own props. */
export type TextareaFormFieldProps<T extends FieldValues, TOut = T> = LabelledFieldProps<T, TOut> & TextareaControlProps;

/** TextareaFormField is InputFormField for a multi-line text (notes, prompts). */
export function TextareaFormField<T extends FieldValues, TOut = T>(props: TextareaFormFieldProps<T, TOut>) {
  return <LabelledField<T, TOut, TextareaControlProps> {...props} render={(field, textareaProps) => <Textarea {...textareaProps} {...field} value={field.value ?? ""} />} />;
}
