import type * as React from "react";
import type { Control, FieldPath, FieldValues } from "react-hook-form";
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
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
export function HolderFormField<T extends FieldValues, TOut = T>({
  control,
  name,
  label,
  users,
  counts,
  placeholder,
  disabled,
  className,
}: HolderFormFieldProps<T, TOut>) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={className}>
          <FormLabel>{label}</FormLabel>
          <Select value={field.value} onValueChange={field.onChange} disabled={disabled}>
            <FormControl>
              <SelectTrigger onBlur={field.onBlur}>
                <SelectValue placeholder={placeholder} />
              </SelectTrigger>
            </FormControl>
            <SelectContent>
              {users.map((u) => (
                <SelectItem key={u.id} value={u.id}>
                  {displayName(u)} ({roleLabel(u.role)}){counts ? ` - holds ${counts.get(u.id) ?? 0}` : ""}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}
