import type * as React from "react";
import type { FieldValues } from "react-hook-form";
import { FormBody, type FormBodyProps } from "@/components/form-body";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";

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

/** DialogFormFooterProps: the form the submit button submits (by id), whether it is saving, Cancel's handler, the submit's text. */
export type DialogFormFooterProps = {
  formId: string;
  pending: boolean;
  onCancel: () => void;
  /** spinnerLabel, when given, shows a Spinner so named in the submit button while pending */
  spinnerLabel?: string;
  children: React.ReactNode;
};

/**
 * DialogFormFooter is the footer of a dialog whose form sits above it: Cancel and the submit
 * button (form={formId}), both disabled while the form saves.
 */
export function DialogFormFooter({ formId, pending, onCancel, spinnerLabel, children }: DialogFormFooterProps) {
  return (
    <DialogFooter>
      <Button type="button" variant="outline" disabled={pending} onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" form={formId} disabled={pending}>
        {pending && spinnerLabel && <Spinner label={spinnerLabel} />}
        {children}
      </Button>
    </DialogFooter>
  );
}
