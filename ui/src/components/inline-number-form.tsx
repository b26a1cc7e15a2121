import * as React from "react";
import { Input } from "@/components/ui/input";
import { toast } from "@/hooks/use-toast";
import { INVALID_VALUE, MAX_FLEET, parseInlineCount } from "@/lib/count";

/**
 * InlineNumberForm is a one-number form opened in place (a quick log, a figure's edit): a
 * whole-number input named label, focused at once, then the form's buttons (children).
 * Submitting (Enter or the submit button) checks the draft with parseInlineCount: a whole
 * number up to max is saved (onSave), 0 closes without saving (onClose), anything else gets
 * the 'Invalid Value' toast. The draft starts as initial each time the form opens.
 */
export function InlineNumberForm({
  label,
  min,
  max = MAX_FLEET,
  initial,
  disabled,
  onSave,
  onClose,
  className,
  inputClassName,
  children,
}: {
  label: string;
  min: number;
  max?: number;
  initial: string;
  disabled: boolean;
  onSave: (value: number) => void;
  onClose: () => void;
  className: string;
  inputClassName: string;
  children: React.ReactNode;
}) {
  const [draft, setDraft] = React.useState(initial);
  const submit = () => {
    const parsed = parseInlineCount(draft, max);
    if (parsed.kind === "invalid") toast({ ...INVALID_VALUE, variant: "destructive" });
    else if (parsed.kind === "close") onClose();
    else onSave(parsed.value);
  };
  return (
    <form
      className={className}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Input
        aria-label={label}
        type="number"
        inputMode="numeric"
        min={min}
        step={1}
        autoFocus
        className={inputClassName}
        value={draft}
        disabled={disabled}
        onChange={(e) => setDraft(e.target.value)}
      />
      {children}
    </form>
  );
}
