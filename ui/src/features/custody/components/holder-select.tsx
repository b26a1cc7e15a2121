import type * as React from "react";
import type { Control, FieldPath, FieldValues } from "react-hook-form";
import { SelectFormField } from "@/components/select-form-field";
import type { EligibleUser } from "@/features/custody/api/get-eligible-holders";
import { displayName, roleLabel } from "@/lib/user";

/** HolderFormFieldProps: a form's user field; counts (user id → held) adds what each holds. */
export type HolderFormFieldProps<T extends FieldValues, TOut = T> = {
  control: Control<T, unknown, TOut>;
  name: FieldPath<T>;
  label: React.ReactNode;
  users: readonly EligibleUser[];
  counts?: ReadonlyMap<string, number>;
  placeholder: string;
  disabled?: boolean;
  className?: string;
};

/** HolderFormField picks a user who may hold batteries (driver, admin or master_admin). */
export function HolderFormField<T extends FieldValues, TOut = T>({ users, counts, ...props }: HolderFormFieldProps<T, TOut>) {
  const options = users.map((u) => ({
    value: u.id,
    label: `${displayName(u)} (${roleLabel(u.role)})${counts ? ` - holds ${counts.get(u.id) ?? 0}` : ""}`,
  }));
  return <SelectFormField {...props} options={options} />;
}
