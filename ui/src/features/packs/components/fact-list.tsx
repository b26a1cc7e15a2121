/**
 * FactList is a pack's facts as label and value pairs (the pack page and the public passport),
 * two columns from sm up.
 */
export function FactList({ facts }: { facts: readonly (readonly [string, React.ReactNode])[] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2">
      {facts.map(([k, v]) => (
        <div key={k} className="min-w-0">
          <dt className="text-xs font-medium text-muted-foreground">{k}</dt>
          <dd className="break-words">{v}</dd>
        </div>
      ))}
    </dl>
  );
}
