import type * as React from "react";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";

/** SelectOption is one choice of an OptionSelect. */
export type SelectOption = { value: string; label: React.ReactNode };

/** OptionSelectProps: the choice and its change, the choices, then the trigger's own props (id, aria-label, className…). */
export type OptionSelectProps = Omit<React.ComponentProps<typeof SelectTrigger>, "children" | "value" | "defaultValue" | "dir"> & {
  value: string | undefined;
  onValueChange: (value: string) => void;
  options: readonly SelectOption[];
  /** placeholder shows while nothing is chosen */
  placeholder?: string;
};

/**
 * OptionSelect is the one Radix Select of a list of choices: the trigger showing the choice
 * (or the placeholder) and one item per option. Props it does not know go to the trigger, so a
 * FormControl around it (or a Label's htmlFor through id) reaches the combobox.
 */
export function OptionSelect({ value, onValueChange, options, placeholder, disabled, ...trigger }: OptionSelectProps) {
  return (
    <Select value={value} onValueChange={onValueChange} disabled={disabled}>
      <SelectTrigger {...trigger}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {options.map((o) => (
          <SelectItem key={o.value} value={o.value}>
            {o.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
