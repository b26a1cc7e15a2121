import type * as React from "react";
import type { FieldValues } from "react-hook-form";
import { FormBody, type FormBodyProps } from "@/components/form-body";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";

/** DialogFormProps: FormBody's props, with the DialogFooter's content in place of its footer. */
export type DialogFormProps<T extends FieldValues, TOut = T> = Omit<FormBodyProps<T, TOut>, "footer"> & {
  /** onCancel, when given, shows a Cancel button before the submit button */
  onCancel?: () => void;
  /** submit is the submit button (a SubmitButton, usually) */
  submit: React.ReactNode;
  footerClassName?: string;
};

/** DialogForm is the form of a dialog: its fields, then a DialogFooter holding Cancel and the submit button. */
export function DialogForm<T extends FieldValues, TOut = T>({ onCancel, submit, footerClassName, ...body }: DialogFormProps<T, TOut>) {
  return (
    <FormBody
      {...body}
      footer={
        <DialogFooter className={footerClassName}>
          {onCancel && (
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
          )}
          {submit}
        </DialogFooter>
      }
    />
  );
}
