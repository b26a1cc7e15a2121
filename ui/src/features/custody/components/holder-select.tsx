import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { EligibleUser } from "@/features/custody/api/get-eligible-holders";
import { displayName, roleLabel } from "@/lib/user";

/** HolderSelectProps: a labelled select of users; counts (user id → held) adds what each holds. */
export type HolderSelectProps = {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  users: readonly EligibleUser[];
  counts?: ReadonlyMap<string, number>;
  placeholder: string;
  error?: string;
  disabled?: boolean;
};

/** HolderSelect picks a user who may hold batteries (driver, admin or master_admin). */
export function HolderSelect({ id, value, onChange, onBlur, users, counts, placeholder, error, disabled }: HolderSelectProps) {
  return (
    <>
      <Select value={value} onValueChange={onChange} disabled={disabled}>
        <SelectTrigger
          id={id}
          onBlur={onBlur}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        >
          <SelectValue placeholder={placeholder} />
        </SelectTrigger>
        <SelectContent>
          {users.map((u) => (
            <SelectItem key={u.id} value={u.id}>
              {displayName(u)} ({roleLabel(u.role)}){counts ? ` - holds ${counts.get(u.id) ?? 0}` : ""}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {error && (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </>
  );
}

/** FieldError shows a field's message under it (id ties it to the input's aria-describedby). */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-destructive">
      {message}
    </p>
  );
}
