import type * as React from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { Button, type ButtonProps } from "@/components/ui/button";
import { Form } from "@/components/ui/form";

/** FormBodyProps: the useForm() result, the submit handler, the form element's own props, what closes the form. */
export type FormBodyProps<T extends FieldValues, TOut = T> = {
  form: UseFormReturn<T, unknown, TOut>;
  onSubmit: React.FormEventHandler<HTMLFormElement>;
  /** footer follows the fields (the submit button, in its row or a DialogFooter) */
  footer?: React.ReactNode;
} & Omit<React.ComponentProps<"form">, "onSubmit" | "noValidate">;

/**
 * FormBody is the one react-hook-form frame of every form: Form (the provider) around a plain
 * <form noValidate> (the zod schema validates, with the spec's messages), the fields, then the
 * footer.
 *
 *   <FormBody form={form} onSubmit={onSubmit} className="grid gap-4" footer={<SubmitButton …/>}>
 */
export function FormBody<T extends FieldValues, TOut = T>({ form, onSubmit, footer, children, ...formProps }: FormBodyProps<T, TOut>) {
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate {...formProps}>
        {children}
        {footer}
      </form>
    </Form>
  );
}

/** SubmitButtonProps: whether the mutation is running, what the button says meanwhile, then Button's own props. */
export type SubmitButtonProps = Omit<ButtonProps, "type" | "asChild"> & {
  pending: boolean;
  /** pendingLabel replaces the button's text while pending ("Saving...") */
  pendingLabel: React.ReactNode;
};

/** SubmitButton is a form's submit button: disabled, and saying pendingLabel, while its mutation runs. */
export function SubmitButton({ pending, pendingLabel, disabled, children, ...props }: SubmitButtonProps) {
  return (
    <Button type="submit" disabled={pending || disabled} {...props}>
      {pending ? pendingLabel : children}
    </Button>
  );
}

/** SubmitRow is the last row of a two-column form: its SubmitButton alone, across both columns ("Saving..." while pending unless told). */
export function SubmitRow({ pendingLabel = "Saving...", ...props }: Omit<SubmitButtonProps, "pendingLabel"> & { pendingLabel?: React.ReactNode }) {
  return (
    <div className="sm:col-span-2">
      <SubmitButton pendingLabel={pendingLabel} {...props} />
    </div>
  );
}
