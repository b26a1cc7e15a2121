import * as React from "react";

/** useNow returns the current time, refreshed every intervalMs, so 'Due' and 'ready now' turn over on their own. */
export function useNow(intervalMs = 15_000): Date {
  const [now, setNow] = React.useState(() => new Date());
  React.useEffect(() => {
    const id = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}
