import * as React from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { ScanCodesButton, type ScanCodesButtonProps } from "@/features/scan/components/scan-codes-button";

/** CodeEntryProps are the Scan button's (less onUnavailable: typing takes over) and the typed serial's. */
export type CodeEntryProps = Omit<ScanCodesButtonProps, "onUnavailable" | "className"> & {
  /** addLabel names the Add button for a screen reader ("Add to the count"). */
  addLabel: string;
  /** onTyped adds a typed code and returns the refusal to show under the field, "" when it was taken. */
  onTyped: (text: string) => string;
  /** suggestions complete the typed serial (a datalist). */
  suggestions?: readonly string[];
  onTypingFocus?: () => void;
};

/**
 * CodeEntry is the row a list of packs is filled from: the Scan button opening the camera
 * scanner, and beside it a typed serial as the fallback (Enter or Add; the field keeps what was
 * typed, with the refusal under it, until a code is taken). A camera that cannot be used moves
 * focus to the typed serial.
 */
export function CodeEntry({ addLabel, onTyped, suggestions, onTypingFocus, ...scanner }: CodeEntryProps) {
  const ids = React.useId();
  const inputRef = React.useRef<HTMLInputElement>(null);
  const [typed, setTyped] = React.useState("");
  const [typedError, setTypedError] = React.useState("");

  function addTyped() {
    if (!typed.trim()) return;
    const refusal = onTyped(typed);
    setTypedError(refusal);
    if (!refusal) setTyped("");
  }

  return (
    <div className="flex flex-wrap items-end gap-x-2 gap-y-3">
      <ScanCodesButton className="w-full sm:w-auto" {...scanner} onUnavailable={() => inputRef.current?.focus()} />
      <div className="flex min-w-[min(100%,14rem)] flex-1 flex-col gap-1">
        <Label htmlFor={`${ids}-typed`} className="text-xs">
          Type a serial
        </Label>
        <div className="flex gap-2">
          <Input
            ref={inputRef}
            id={`${ids}-typed`}
            value={typed}
            list={suggestions ? `${ids}-held` : undefined}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            aria-invalid={typedError ? true : undefined}
            aria-describedby={typedError ? `${ids}-typed-error` : undefined}
            onFocus={onTypingFocus}
            onChange={(e) => {
              setTyped(e.target.value);
              setTypedError("");
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault(); // the field may sit in the screen's form: Enter adds, it does not send
                addTyped();
              }
            }}
          />
          <Button type="button" variant="secondary" onClick={addTyped} aria-label={addLabel}>
            Add
          </Button>
        </div>
        {suggestions && (
          <datalist id={`${ids}-held`}>
            {suggestions.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
        )}
        {typedError && (
          <p id={`${ids}-typed-error`} className="text-xs font-medium text-destructive" role="alert">
            {typedError}
          </p>
        )}
      </div>
    </div>
  );
}
