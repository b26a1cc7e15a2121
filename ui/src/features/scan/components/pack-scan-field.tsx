import { useQuery, useQueryClient } from "@tanstack/react-query";
import * as React from "react";
import { packsQueryOptions } from "@/features/packs/api/get-packs";
import { usePackLookups } from "@/features/scan/api/lookup-packs";
import { useOutOfUse } from "@/features/scan/api/out-of-use";
import { invalidate } from "@/lib/invalidation";
import { CodeEntry } from "@/features/scan/components/code-entry";
import { PackRow } from "@/features/scan/components/pack-row";
import type { CodeResult } from "@/features/scan/components/scanner-dialog";
import { type Judge, judgeSerial, refusedOf } from "@/features/scan/utils/judge";
import { serials as bodySerials, actionOf } from "@/features/outbox/api/actions";
import { itemLabel, useOutbox } from "@/features/outbox/hooks/use-outbox";
import { serialFromCode } from "@/lib/serial";
import { type PackInfo, type PackPurpose, addSerial, countText, holdList, loadList, removeSerial, rowView, saveList } from "@/features/scan/utils/scan-list";

/** PackScanFieldProps are the scan field's props: the contract the battery-moving screens use (issue 36). */
export type PackScanFieldProps = {
  /** id is the persist key ("pickup.packs"): the list survives a rotation, a refused send and a
   * reload until the caller clears it with onChange([]) after a successful send or queue (or
   * the field unmounts: its screen is done with it). */
  id: string;
  /** label names the list: "Packs", "Good packs", "Dead packs". */
  label: string;
  /** value is the serials, upper-case, in scan order. */
  value: string[];
  onChange: (serials: string[]) => void;
  /** expected is the typed count, for "2 of 3 scanned". */
  expected?: number;
  /**
   * purpose handout (to a person or a charger) refuses an out-of-use pack at the moment of the
   * scan, with the server's reason (GET /api/packs/out-of-use, kept offline).
   */
  purpose?: PackPurpose;
  /** errors maps a serial to the reason a server refusal gave, shown red on its row. */
  errors?: Record<string, string>;
  disabled?: boolean;
  /**
   * judge replaces the field's own judgement of a serial (purpose and the queued actions): a
   * refused serial is listed red with its message, gets the refusal's sound in the scanner, and
   * is reported through onRefused.
   */
  judge?: Judge;
  /** onRefused is told the listed serials the judgement refuses, with their reasons, whenever they change. */
  onRefused?: (refused: Record<string, string>) => void;
};

/** MSG_NOT_SERIAL is the typed entry's refusal. */
export const MSG_NOT_SERIAL = "Not a pack serial or label";

/**
 * PackScanField lists the packs named for a movement — serial, model, state, a remove button
 * each — with a Scan button opening the camera scanner and a typed serial (completed from the
 * packs the signed-in driver holds) as the fallback.
 */
export function PackScanField({ id, label, value, onChange, expected, purpose = "any", errors, disabled, judge, onRefused }: PackScanFieldProps) {
  const ids = React.useId();
  const [completing, setCompleting] = React.useState(false);

  // the latest list, so codes found in quick succession each see the ones before them
  const latest = React.useRef(value);
  latest.current = value;
  const change = React.useCallback(
    (next: string[]) => {
      latest.current = next;
      onChange(next);
    },
    [onChange],
  );

  // restore the kept list once (a reload, a remount after rotation), then keep every change;
  // forget it when the field leaves the screen (utils/scan-list.ts holdList says why)
  React.useEffect(() => holdList(id), [id]);
  const restored = React.useRef(false);
  React.useEffect(() => {
    if (!restored.current) {
      restored.current = true;
      const kept = loadList(id);
      if (value.length === 0 && kept.length > 0) {
        change(kept);
        return;
      }
    }
    saveList(id, value);
  }, [id, value, change]);

  const infos = usePackLookups(value);
  const judgeOf = useJudge(purpose === "handout" && !judge);
  // the synced list was behind (the server refused a pack, or its lookup finds one out of use
  // that the list did not name): read the packs again (the list's meta.staleOn names "packs"),
  // so the judgement catches up and the form stops sending it
  const queryClient = useQueryClient();
  const behind = purpose === "handout" && !judge && value.some((s) => (errors?.[s] !== undefined || outOfUseState(infos[s])) && !("refused" in judgeOf(s)));
  React.useEffect(() => {
    if (behind) void invalidate(queryClient, "packs");
  }, [behind, queryClient]);
  const verdict = judge ?? judgeOf;
  const refused = refusedOf(value, verdict);
  const refusedKey = JSON.stringify(refused);
  const onRefusedRef = React.useRef(onRefused);
  onRefusedRef.current = onRefused;
  React.useEffect(() => onRefusedRef.current?.(JSON.parse(refusedKey) as Record<string, string>), [refusedKey]);

  const held = useQuery({ ...packsQueryOptions({}), enabled: completing && !disabled, meta: { ...packsQueryOptions({}).meta, silentError: true } });
  const suggestions = (held.data?.packs ?? []).map((p) => p.serial).filter((s) => !value.includes(s));

  function add(text: string): CodeResult {
    const serial = serialFromCode(text);
    if (!serial) return "wrong";
    const r = addSerial(latest.current, serial);
    const v = verdict(serial);
    // a refused pack shown again is refused again (its sound and red), not merely "already listed"
    if (!r.added) return r.reason === "duplicate" && "refused" in v ? { refused: v.message } : (r.reason ?? "duplicate");
    change(r.list);
    return "refused" in v ? { refused: v.message } : v.note ? { note: v.note } : "added";
  }

  /** typedRefusal adds a typed serial; a refusal by the rules is listed, on its row. */
  function typedRefusal(text: string): string {
    const r = add(text);
    if (r === "wrong") return MSG_NOT_SERIAL;
    if (r === "duplicate") return `${serialFromCode(text)} is already listed`;
    if (r === "full") return "The list is full";
    return "";
  }

  // a refused pack is listed, not counted: it is not sent
  const nRefused = Object.keys(refused).length;
  const count = countText(value.length - nRefused, expected) + (nRefused > 0 ? ` · ${nRefused} refused` : "");
  const list = (
    <ul className="flex flex-col divide-y rounded-md border empty:hidden" aria-label={`${label} scanned`}>
      {value.map((serial) => {
        const v = rowView(infos[serial], purpose, errors?.[serial], verdict(serial));
        return (
          <PackRow
            key={serial}
            serial={serial}
            detail={[v.model, v.detail].filter(Boolean).join(" · ")}
            problem={v.problem}
            problemBg="bg-destructive/10"
            disabled={disabled}
            onRemove={() => change(removeSerial(latest.current, serial))}
          />
        );
      })}
    </ul>
  );

  return (
    <fieldset className="flex min-w-0 flex-col gap-2" disabled={disabled} aria-describedby={`${ids}-count`}>
      <legend className="mb-1 text-sm font-medium">{label}</legend>
      <p id={`${ids}-count`} className="text-sm text-muted-foreground" aria-live="polite">
        {count}
      </p>
      {list}
      <CodeEntry
        variant="outline"
        label={label}
        count={count}
        list={list}
        onCode={add}
        addLabel={`Add to ${label}`}
        onTyped={typedRefusal}
        suggestions={suggestions}
        onTypingFocus={() => setCompleting(true)}
      />
    </fieldset>
  );
}

/**
 * useJudge is the field's own judgement of a scan: with handout, an out-of-use pack is refused
 * in the server's words (the last synced list, offline too), and a pack in transit to another
 * city for any purpose; any pack a queued action already names is noted.
 */
function useJudge(handout: boolean): Judge {
  // read for every purpose: a pack in transit to another city is refused whatever the purpose
  const outOfUse = useOutOfUse(true);
  const { items } = useOutbox();
  const queued = React.useMemo(() => {
    const m = new Map<string, string>();
    for (const item of items) {
      if (item.status === "refused") continue;
      for (const [field] of actionOf(item.kind)?.packs ?? []) for (const s of bodySerials(item.body[field])) m.set(s.toUpperCase(), itemLabel(item));
    }
    return m;
  }, [items]);
  return React.useCallback((serial: string) => judgeSerial(serial, handout, outOfUse, queued), [handout, outOfUse, queued]);
}

/** outOfUseState reports whether a lookup finds the pack in a state it is out of use in. */
function outOfUseState(info: PackInfo | undefined): boolean {
  return info?.status === "known" && (info.state === "quarantined" || info.state === "retired" || info.state === "recycled");
}
