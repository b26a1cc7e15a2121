import * as React from "react";

/**
 * useNow is the current time, re-read every intervalMs so relative times stay true and 'Due'
 * and 'ready now' turn over on their own (activity: every 30 s; charging: every 15 s).
 */
export function useNow(intervalMs = 30_000): Date {
  const [now, setNow] = React.useState(() => new Date());
  React.useEffect(() => {
    const t = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}
