// The time as a render input: statuses run out by the clock, with no write
// (and so no push) when they do, so lists that hide ended ones re-read it.

import { useEffect, useState } from 'react';

/** `Date.now()`, refreshed every `intervalMs`. */
export function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}
