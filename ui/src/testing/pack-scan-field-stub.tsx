// A stand-in for features/scan's PackScanField in screen tests: the same contract (value,
// onChange, errors by serial, expected), no camera and no pack lookups, so a test drives the
// screen's form logic (counts, bodies, refusals) alone; the scan feature's own PackListField
// lays it out as it would the real one. vi.mock("@/features/scan/components/pack-scan-field",
// () => import("@/testing/pack-scan-field-stub")). Its judgement of a scan: the judge given, else
// for a hand-out a serial starting "QUAR-" is refused as the server words a quarantined pack.
import * as React from "react";
import type { PackScanFieldProps } from "@/features/scan/components/pack-scan-field";
import { type ScanVerdict, refusedOf } from "@/features/scan/utils/judge";

/** stubJudge is the stand-in's judgement of serial for purpose. */
function stubJudge(serial: string, purpose: PackScanFieldProps["purpose"]): ScanVerdict {
  return purpose === "handout" && serial.startsWith("QUAR-")
    ? { refused: true, code: "pack_quarantined", message: `Pack ${serial} is quarantined and cannot be handed out` }
    : { ok: true };
}

/** PackScanField lists value (each row with its error and a Remove button) and adds a typed serial on Add. */
export function PackScanField({ id, label, value, onChange, expected, errors, disabled, purpose, judge, onRefused }: PackScanFieldProps) {
  const [typed, setTyped] = React.useState("");
  const refused = refusedOf(value, judge ?? ((s) => stubJudge(s, purpose)));
  const key = JSON.stringify(refused);
  React.useEffect(() => onRefused?.(JSON.parse(key) as Record<string, string>), [key]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <fieldset aria-label={label} data-id={id} disabled={disabled}>
      <p>{expected === undefined ? `${value.length} scanned` : `${value.length} of ${expected} scanned`}</p>
      <ul aria-label={`${label} scanned`}>
        {value.map((s) => (
          <li key={s}>
            {s}
            {(errors?.[s] ?? refused[s]) && <span role="note">{errors?.[s] ?? refused[s]}</span>}
            <button type="button" onClick={() => onChange(value.filter((v) => v !== s))}>
              Remove {s}
            </button>
          </li>
        ))}
      </ul>
      <label>
        Type a serial
        <input value={typed} onChange={(e) => setTyped(e.target.value)} />
      </label>
      <button
        type="button"
        onClick={() => {
          const s = typed.trim().toUpperCase();
          if (s && !value.includes(s)) onChange([...value, s]);
          setTyped("");
        }}
      >
        Add to {label}
      </button>
    </fieldset>
  );
}

/** serialFromCode is the one reading of a code (lib/serial), as the scan feature exports it. */
export { serialFromCode } from "@/lib/serial";
