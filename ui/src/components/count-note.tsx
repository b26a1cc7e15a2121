/**
 * CountNote ends a form card's description with the count its form draws on ("12 ready."),
 * the figure in tabular numerals; nothing while the count loads.
 */
export function CountNote({ value, words }: { value: number | undefined; words: string }) {
  if (value === undefined) return null;
  return (
    <span>
      <strong className="tabular-nums">{value}</strong> {words}
    </span>
  );
}
