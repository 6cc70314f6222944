// The time as a render input, for what changes with the clock alone and no
// write (so no push) says so: statuses that run out (the sub market), "Nudged
// 3 min ago" and a lock passing (a roster's availability board).

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
