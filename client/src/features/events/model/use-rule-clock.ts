// The time as a render input for the RSVP rules: the page re-renders at the
// moment a rule changes what it says (the regulars' window closing, the
// lock passing), not on a polling interval, so "RSVPs lock at 7:30 PM"
// becomes "RSVPs closed at 7:30 PM" and the join button turns off on the
// minute.

import { useEffect, useState } from 'react';

/** Browsers fire a longer timeout at once; a later moment is waited for in steps. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** `Date.now()`, refreshed as each of `moments` (RFC 3339, or null) passes. */
export function useRuleClock(moments: ReadonlyArray<string | null | undefined>): number {
  const [now, setNow] = useState(() => Date.now());
  const key = moments.join('|');
  useEffect(() => {
    const next = key
      .split('|')
      .map((m) => (m ? Date.parse(m) : NaN))
      .filter((ms) => !Number.isNaN(ms) && ms > now)
      .sort((a, b) => a - b)[0];
    if (next === undefined) return undefined;
    // A little past the moment, so it has passed when the render reads the clock.
    const t = setTimeout(() => setNow(Date.now()), Math.min(next - Date.now() + 50, MAX_TIMEOUT_MS));
    return () => clearTimeout(t);
  }, [key, now]);
  return now;
}
